-- Core banking dump: accounts and debit cards
-- Checking and savings accounts held by bank customers, with account number, branch, currency, opening date, status (active or frozen) and current balance; debit cards are issued on checking accounts.
BEGIN TRANSACTION;

CREATE TABLE accounts (
  account_number TEXT PRIMARY KEY,
  customer_id TEXT,
  branch_id TEXT,
  account_type TEXT,
  currency TEXT,
  opened TEXT,
  status TEXT,
  balance REAL
);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('42846211', 'CU0001', 'BR06', 'checking', 'USD', '2022-12-31', 'active', 2320.13);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('93760163', 'CU0002', 'BR06', 'checking', 'USD', '2019-06-21', 'active', 0.0);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('70025578', 'CU0003', 'BR02', 'checking', 'USD', '2020-05-17', 'active', 4763.07);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('97705390', 'CU0003', 'BR02', 'checking', 'USD', '2020-11-25', 'active', 1886.67);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('65980383', 'CU0004', 'BR06', 'checking', 'USD', '2017-02-01', 'active', 2853.23);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('82212543', 'CU0004', 'BR06', 'savings', 'USD', '2018-06-09', 'active', 1447.99);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('27096853', 'CU0005', 'BR05', 'checking', 'USD', '2021-03-31', 'active', 2035.42);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('55134207', 'CU0005', 'BR05', 'savings', 'USD', '2022-08-08', 'active', 1273.1);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('55365148', 'CU0006', 'BR05', 'checking', 'USD', '2022-09-27', 'active', 6086.51);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('09496904', 'CU0006', 'BR05', 'savings', 'USD', '2016-08-27', 'active', 1224.66);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('39604186', 'CU0007', 'BR01', 'checking', 'USD', '2021-07-15', 'active', 0.0);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('56306043', 'CU0008', 'BR03', 'checking', 'EUR', '2020-07-24', 'active', 269.26);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('70143269', 'CU0008', 'BR03', 'savings', 'USD', '2015-11-24', 'active', 2610.95);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('04949188', 'CU0009', 'BR04', 'checking', 'USD', '2019-03-13', 'active', 4213.85);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('90663123', 'CU0010', 'BR01', 'checking', 'GBP', '2018-04-24', 'active', 1803.69);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('44006826', 'CU0010', 'BR01', 'savings', 'USD', '2022-09-08', 'active', 2690.99);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('36392481', 'CU0011', 'BR01', 'checking', 'EUR', '2019-02-02', 'active', 1184.42);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('85711537', 'CU0011', 'BR01', 'savings', 'GBP', '2021-09-08', 'active', 1205.13);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('45470300', 'CU0012', 'BR02', 'checking', 'USD', '2016-07-29', 'active', 3885.99);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('33901250', 'CU0012', 'BR02', 'checking', 'USD', '2021-01-22', 'active', 1293.1);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('75850991', 'CU0013', 'BR04', 'checking', 'USD', '2021-06-15', 'active', 816.33);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('48685893', 'CU0014', 'BR04', 'checking', 'USD', '2017-06-14', 'active', 999.59);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('87343894', 'CU0015', 'BR05', 'checking', 'USD', '2021-11-04', 'active', 2368.72);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('21454911', 'CU0016', 'BR05', 'checking', 'GBP', '2015-11-20', 'active', 6.73);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('59559672', 'CU0016', 'BR05', 'checking', 'GBP', '2021-07-08', 'active', 2831.08);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('36398882', 'CU0017', 'BR05', 'checking', 'USD', '2021-08-02', 'active', 0.0);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('03265391', 'CU0017', 'BR05', 'checking', 'USD', '2020-10-08', 'frozen', 10.13);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('49646200', 'CU0018', 'BR06', 'checking', 'USD', '2016-04-19', 'active', 2994.06);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('36191466', 'CU0019', 'BR03', 'checking', 'USD', '2018-03-22', 'active', 1755.42);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('41828817', 'CU0020', 'BR03', 'checking', 'USD', '2015-01-14', 'active', 129.1);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('13653739', 'CU0021', 'BR01', 'checking', 'USD', '2022-01-10', 'active', 2503.15);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('09827673', 'CU0022', 'BR01', 'checking', 'USD', '2022-10-20', 'frozen', 0.0);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('34308470', 'CU0022', 'BR01', 'checking', 'USD', '2022-09-11', 'active', 1437.85);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('42885552', 'CU0023', 'BR05', 'checking', 'USD', '2019-09-12', 'active', 1724.2);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('29833309', 'CU0023', 'BR05', 'savings', 'USD', '2018-03-05', 'active', 1269.35);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('63433307', 'CU0024', 'BR05', 'checking', 'USD', '2019-04-06', 'active', 6516.08);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('39470607', 'CU0025', 'BR01', 'checking', 'USD', '2018-07-31', 'active', 1523.92);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('10703477', 'CU0026', 'BR04', 'checking', 'USD', '2022-10-12', 'active', 3463.82);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('63134067', 'CU0026', 'BR04', 'checking', 'USD', '2015-11-01', 'active', 1719.35);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('78223199', 'CU0027', 'BR01', 'checking', 'USD', '2020-03-28', 'active', 0.0);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('48633979', 'CU0027', 'BR01', 'savings', 'USD', '2017-04-10', 'active', 1688.1);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('54697458', 'CU0028', 'BR01', 'checking', 'USD', '2016-06-28', 'active', 1329.75);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('45012265', 'CU0029', 'BR01', 'checking', 'GBP', '2019-10-04', 'active', 0.0);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('73491715', 'CU0029', 'BR01', 'savings', 'GBP', '2020-04-26', 'active', 571.23);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('92844872', 'CU0030', 'BR06', 'checking', 'GBP', '2016-08-28', 'active', 2460.48);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('36913199', 'CU0030', 'BR06', 'checking', 'USD', '2022-10-17', 'active', 1120.58);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('18890613', 'CU0031', 'BR01', 'checking', 'USD', '2018-09-29', 'active', 1662.86);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('66643098', 'CU0031', 'BR01', 'savings', 'USD', '2022-12-28', 'frozen', 2784.95);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('52504050', 'CU0032', 'BR04', 'checking', 'GBP', '2018-11-16', 'active', 4.32);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('89977327', 'CU0032', 'BR04', 'savings', 'USD', '2018-05-20', 'active', 1179.79);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('32492306', 'CU0033', 'BR06', 'checking', 'USD', '2022-06-23', 'active', 1164.61);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('74635235', 'CU0034', 'BR06', 'checking', 'USD', '2020-04-22', 'active', 1644.65);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('00819554', 'CU0035', 'BR05', 'checking', 'USD', '2023-02-10', 'active', 2188.43);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('01724046', 'CU0036', 'BR06', 'checking', 'EUR', '2017-04-06', 'active', 2733.64);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('33138853', 'CU0037', 'BR02', 'checking', 'GBP', '2022-03-31', 'active', 2437.11);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('94055233', 'CU0038', 'BR06', 'checking', 'USD', '2015-08-24', 'active', 2875.29);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('85939518', 'CU0039', 'BR01', 'checking', 'USD', '2015-12-19', 'active', 1442.97);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('94406563', 'CU0040', 'BR04', 'checking', 'USD', '2022-01-09', 'active', 1396.74);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('44100801', 'CU0041', 'BR03', 'checking', 'GBP', '2018-04-28', 'active', 3485.43);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('31482845', 'CU0041', 'BR03', 'savings', 'USD', '2020-12-14', 'active', 2261.41);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('98827332', 'CU0042', 'BR02', 'checking', 'USD', '2017-01-30', 'active', 2169.98);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('00829707', 'CU0042', 'BR02', 'savings', 'EUR', '2022-05-17', 'active', 3931.48);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('03542889', 'CU0043', 'BR02', 'checking', 'USD', '2023-01-28', 'active', 613.47);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('89785792', 'CU0044', 'BR01', 'checking', 'USD', '2021-09-13', 'active', 1070.2);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('22385391', 'CU0044', 'BR01', 'savings', 'USD', '2020-02-17', 'active', 2669.19);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('76595424', 'CU0045', 'BR01', 'checking', 'USD', '2020-12-06', 'active', 3302.51);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('79832821', 'CU0045', 'BR01', 'savings', 'USD', '2015-12-07', 'active', 2208.46);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('52627039', 'CU0046', 'BR06', 'checking', 'EUR', '2022-08-22', 'active', 1919.13);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('26483213', 'CU0046', 'BR06', 'savings', 'USD', '2019-07-25', 'active', 282.69);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('32322331', 'CU0047', 'BR06', 'checking', 'USD', '2017-12-13', 'active', 2778.96);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('73136315', 'CU0047', 'BR06', 'checking', 'USD', '2019-12-29', 'frozen', 10.18);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('79862464', 'CU0048', 'BR06', 'checking', 'USD', '2018-12-21', 'active', 2394.62);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('93963783', 'CU0048', 'BR06', 'checking', 'USD', '2021-12-06', 'active', 609.01);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('77666784', 'CU0049', 'BR02', 'checking', 'USD', '2016-12-17', 'frozen', 1004.84);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('17055475', 'CU0050', 'BR06', 'checking', 'USD', '2016-10-14', 'active', 4354.66);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('61886825', 'CU0050', 'BR06', 'checking', 'USD', '2020-07-12', 'active', 1892.75);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('81656205', 'CU0051', 'BR02', 'checking', 'EUR', '2022-04-06', 'active', 1675.13);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('47334488', 'CU0051', 'BR02', 'savings', 'USD', '2019-09-01', 'active', 2600.02);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('97186271', 'CU0052', 'BR02', 'checking', 'USD', '2019-08-09', 'frozen', 1451.68);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('89669288', 'CU0053', 'BR05', 'checking', 'USD', '2020-05-22', 'active', 3660.82);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('85403541', 'CU0053', 'BR05', 'checking', 'USD', '2018-01-04', 'active', 2764.57);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('30403233', 'CU0054', 'BR04', 'checking', 'USD', '2020-09-06', 'active', 1320.19);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('04768758', 'CU0055', 'BR06', 'checking', 'USD', '2018-10-09', 'active', 3544.27);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('96669812', 'CU0056', 'BR03', 'checking', 'GBP', '2021-06-29', 'active', 897.3);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('07633940', 'CU0056', 'BR03', 'savings', 'USD', '2019-08-15', 'active', 2600.34);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('35140922', 'CU0057', 'BR05', 'checking', 'USD', '2021-10-16', 'active', 2394.88);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('72988732', 'CU0058', 'BR01', 'checking', 'USD', '2018-06-28', 'active', 2306.57);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('22433934', 'CU0058', 'BR01', 'savings', 'USD', '2017-04-29', 'active', 2851.08);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('45340279', 'CU0059', 'BR03', 'checking', 'USD', '2018-12-20', 'active', 1839.65);
INSERT INTO accounts (account_number, customer_id, branch_id, account_type, currency, opened, status, balance) VALUES ('85793809', 'CU0060', 'BR03', 'checking', 'USD', '2021-01-17', 'active', 1735.37);

CREATE TABLE cards (
  card_id TEXT PRIMARY KEY,
  account_number TEXT,
  card_type TEXT,
  last4 TEXT,
  expires TEXT,
  FOREIGN KEY (account_number) REFERENCES accounts(account_number)
);
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0001', '42846211', 'debit', '3443', '04/2025');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0002', '93760163', 'debit', '6364', '08/2025');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0003', '70025578', 'debit', '4704', '03/2026');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0004', '97705390', 'debit', '5374', '01/2028');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0005', '65980383', 'debit', '8209', '10/2027');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0006', '27096853', 'debit', '5293', '04/2027');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0007', '55365148', 'debit', '5498', '03/2029');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0008', '39604186', 'debit', '2454', '09/2027');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0009', '56306043', 'debit', '2157', '06/2026');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0010', '04949188', 'debit', '8901', '07/2028');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0011', '90663123', 'debit', '2275', '06/2026');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0012', '36392481', 'debit', '6780', '12/2027');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0013', '45470300', 'debit', '3369', '05/2027');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0014', '33901250', 'debit', '4796', '10/2026');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0015', '75850991', 'debit', '8003', '12/2025');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0016', '48685893', 'debit', '0757', '09/2028');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0017', '87343894', 'debit', '3894', '02/2025');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0018', '21454911', 'debit', '1001', '09/2025');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0019', '59559672', 'debit', '7572', '01/2026');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0020', '36398882', 'debit', '2200', '12/2026');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0021', '03265391', 'debit', '6887', '08/2027');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0022', '49646200', 'debit', '6335', '07/2028');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0023', '36191466', 'debit', '0228', '02/2026');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0024', '41828817', 'debit', '4306', '03/2027');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0025', '13653739', 'debit', '8126', '10/2027');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0026', '09827673', 'debit', '1508', '07/2027');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0027', '34308470', 'debit', '4567', '12/2025');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0028', '42885552', 'debit', '9167', '05/2028');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0029', '63433307', 'debit', '9421', '12/2029');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0030', '39470607', 'debit', '6327', '05/2028');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0031', '10703477', 'debit', '1350', '06/2029');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0032', '63134067', 'debit', '8529', '05/2025');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0033', '78223199', 'debit', '6242', '03/2026');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0034', '54697458', 'debit', '3966', '01/2026');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0035', '45012265', 'debit', '5825', '06/2025');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0036', '92844872', 'debit', '0024', '11/2026');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0037', '36913199', 'debit', '4312', '06/2026');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0038', '18890613', 'debit', '5788', '02/2026');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0039', '52504050', 'debit', '8898', '07/2029');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0040', '32492306', 'debit', '8936', '06/2027');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0041', '74635235', 'debit', '6961', '04/2026');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0042', '00819554', 'debit', '2230', '07/2025');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0043', '01724046', 'debit', '3892', '11/2025');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0044', '33138853', 'debit', '0173', '07/2025');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0045', '94055233', 'debit', '2362', '05/2025');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0046', '85939518', 'debit', '9706', '04/2027');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0047', '94406563', 'debit', '7451', '12/2025');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0048', '44100801', 'debit', '9365', '08/2029');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0049', '98827332', 'debit', '4984', '06/2028');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0050', '03542889', 'debit', '8517', '03/2027');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0051', '89785792', 'debit', '0051', '04/2025');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0052', '76595424', 'debit', '3669', '08/2027');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0053', '52627039', 'debit', '9498', '10/2029');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0054', '32322331', 'debit', '1630', '11/2028');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0055', '73136315', 'debit', '2140', '06/2028');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0056', '79862464', 'debit', '7913', '12/2026');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0057', '93963783', 'debit', '7419', '07/2029');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0058', '77666784', 'debit', '2363', '12/2025');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0059', '17055475', 'debit', '2649', '11/2027');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0060', '61886825', 'debit', '9009', '06/2027');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0061', '81656205', 'debit', '7922', '03/2027');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0062', '97186271', 'debit', '0583', '06/2029');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0063', '89669288', 'debit', '4966', '10/2026');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0064', '85403541', 'debit', '5014', '04/2029');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0065', '30403233', 'debit', '4072', '06/2027');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0066', '04768758', 'debit', '2043', '02/2028');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0067', '96669812', 'debit', '2223', '07/2027');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0068', '35140922', 'debit', '0998', '05/2026');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0069', '72988732', 'debit', '9106', '04/2026');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0070', '45340279', 'debit', '1740', '07/2029');
INSERT INTO cards (card_id, account_number, card_type, last4, expires) VALUES ('CD0071', '85793809', 'debit', '8871', '06/2025');
COMMIT;
