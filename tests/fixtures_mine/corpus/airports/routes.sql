-- MySQL dump
/*!40101 SET NAMES utf8 */;
CREATE TABLE `routes` (
  `id` int(11) NOT NULL AUTO_INCREMENT,
  `airline_id` int(11) NOT NULL,
  `origin_airport_code` varchar(3) NOT NULL,
  `destination_airport_code` varchar(3) NOT NULL,
  `distance_km` int UNSIGNED,
  PRIMARY KEY (`id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8;
INSERT INTO `routes` VALUES (1,1,'LIS','OPO',274),(2,1,'LIS','FAO',240),(3,2,'MAD','LIS',503),(4,2,'MAD','BCN',483);
INSERT INTO `routes` VALUES (5,3,'BCN','ORY',831),(6,3,'BCN','XXX',100);
INSERT INTO routes VALUES (7, 'broken';
