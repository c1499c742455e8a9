-- Claims processing dump: claims and claim payments
-- Insurance claims filed against policies with incident date, description, claimed amount, assigned adjuster, assessed amount and status (claims outside the policy period are denied); claim payments pay the assessed amount minus the deductible.
BEGIN TRANSACTION;

CREATE TABLE claims (
  claim_id TEXT PRIMARY KEY,
  policy_number TEXT,
  incident_date TEXT,
  reported_on TEXT,
  description TEXT,
  claimed_amount REAL,
  adjuster_id TEXT,
  assessed_amount REAL,
  status TEXT
);
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00001', 'POL100140', '2024-02-18', '2024-02-27', 'flight delay', 2550.3, 'ADJ7', 2145.14, 'approved');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00002', 'POL100420', '2024-05-05', '2024-05-14', 'burst pipe water damage', 9642.19, 'ADJ4', 8175.31, 'approved');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00003', 'POL100420', '2024-10-16', '2024-10-22', 'kitchen fire', 5029.33, 'ADJ6', 3553.46, 'paid');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00004', 'POL100413', '2024-01-28', '2024-02-06', 'burst pipe water damage', 9762.33, 'ADJ1', 6392.17, 'approved');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00005', 'POL100315', '2023-12-24', '2023-12-25', 'burglary', 24022.7, 'ADJ1', NULL, 'open');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00006', 'POL100392', '2023-10-24', '2023-10-24', 'windscreen crack', 10335.46, 'ADJ1', 6207.74, 'approved');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00007', 'POL100413', '2024-09-21', '2024-10-01', 'burglary', 13324.33, 'ADJ3', 11250.49, 'approved');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00008', 'POL100105', '2023-09-26', '2023-09-27', 'flight delay', 2474.96, 'ADJ5', NULL, 'open');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00009', 'POL100476', '2024-02-22', '2024-02-29', 'trip cancellation', 1204.38, 'ADJ6', 757.98, 'paid');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00010', 'POL100210', '2025-03-21', '2025-03-25', 'parking damage', 15463.1, 'ADJ5', NULL, 'open');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00011', 'POL100350', '2023-10-30', '2023-11-03', 'windscreen crack', 23328.88, 'ADJ7', 19049.46, 'approved');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00012', 'POL100105', '2023-10-02', '2023-10-05', 'trip cancellation', 1722.2, 'ADJ1', 1246.08, 'paid');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00013', 'POL100084', '2023-07-01', '2023-07-04', 'flight delay', 2301.72, 'ADJ8', 2008.96, 'paid');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00014', 'POL100371', '2024-02-19', '2024-02-25', 'lost baggage', 1842.33, 'ADJ7', 1129.26, 'paid');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00015', 'POL100455', '2023-09-13', '2023-09-21', 'medical treatment abroad', 1929.08, 'ADJ7', 1851.3, 'paid');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00016', 'POL100014', '2024-11-24', '2024-11-28', 'storm damage to roof', 7326.69, 'ADJ6', NULL, 'open');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00017', 'POL100343', '2023-06-26', '2023-07-01', 'parking damage', 10974.7, 'ADJ2', 6654.19, 'approved');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00018', 'POL100427', '2023-07-05', '2023-07-09', 'medical treatment abroad', 9936.71, 'ADJ5', 9395.07, 'paid');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00019', 'POL100322', '2024-02-20', '2024-02-27', 'rear-end collision', 12193.75, 'ADJ2', NULL, 'open');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00020', 'POL100336', '2023-08-24', '2023-08-29', 'lost baggage', 4143.04, 'ADJ3', NULL, 'denied');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00021', 'POL100399', '2024-02-10', '2024-02-18', 'lost baggage', 812.69, 'ADJ1', 533.8, 'paid');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00022', 'POL100287', '2023-06-08', '2023-06-14', 'kitchen fire', 19290.39, 'ADJ8', NULL, 'open');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00023', 'POL100021', '2023-10-13', '2023-10-21', 'windscreen crack', 1267.45, 'ADJ6', 815.04, 'paid');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00024', 'POL100133', '2023-11-03', '2023-11-13', 'vehicle theft', 10555.8, 'ADJ5', NULL, 'open');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00025', 'POL100203', '2024-05-17', '2024-05-21', 'medical treatment abroad', 2574.1, 'ADJ3', NULL, 'open');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00026', 'POL100273', '2024-07-28', '2024-07-28', 'vehicle theft', 5933.52, 'ADJ2', 3686.03, 'paid');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00027', 'POL100378', '2023-11-26', '2023-12-02', 'rear-end collision', 11537.64, 'ADJ1', 7042.34, 'approved');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00028', 'POL100427', '2023-06-20', '2023-06-22', 'medical treatment abroad', 8223.07, 'ADJ2', NULL, 'open');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00029', 'POL100105', '2023-09-29', '2023-09-30', 'medical treatment abroad', 3606.28, 'ADJ3', 3596.59, 'paid');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00030', 'POL100196', '2024-06-12', '2024-06-14', 'parking damage', 10284.16, 'ADJ6', 8988.96, 'paid');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00031', 'POL100063', '2023-08-20', '2023-08-23', 'flight delay', 14036.32, 'ADJ2', 8933.24, 'approved');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00032', 'POL100266', '2023-07-01', '2023-07-06', 'kitchen fire', 4833.29, 'ADJ5', NULL, 'open');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00033', 'POL100364', '2023-03-12', '2023-03-17', 'flight delay', 8920.73, 'ADJ5', 5821.76, 'paid');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00034', 'POL100350', '2024-07-01', '2024-07-10', 'parking damage', 13418.41, 'ADJ4', NULL, 'denied');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00035', 'POL100049', '2023-08-07', '2023-08-15', 'kitchen fire', 20384.11, 'ADJ8', 17862.41, 'paid');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00036', 'POL100371', '2024-02-24', '2024-02-27', 'flight delay', 3245.33, 'ADJ3', 2904.51, 'approved');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00037', 'POL100392', '2023-12-13', '2023-12-21', 'windscreen crack', 18101.11, 'ADJ2', 11636.54, 'approved');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00038', 'POL100231', '2023-02-23', '2023-02-27', 'medical treatment abroad', 11678.29, 'ADJ1', 10289.36, 'paid');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00039', 'POL100084', '2023-07-25', '2023-07-26', 'trip cancellation', 969.8, 'ADJ8', NULL, 'denied');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00040', 'POL100399', '2024-02-13', '2024-02-16', 'trip cancellation', 3612.63, 'ADJ3', 2895.15, 'approved');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00041', 'POL100224', '2024-07-19', '2024-07-22', 'burst pipe water damage', 5307.62, 'ADJ4', 5057.61, 'paid');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00042', 'POL100469', '2024-06-07', '2024-06-09', 'rear-end collision', 13186.89, 'ADJ7', NULL, 'denied');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00043', 'POL100231', '2023-02-12', '2023-02-22', 'medical treatment abroad', 13705.75, 'ADJ1', 10425.27, 'paid');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00044', 'POL100077', '2023-07-04', '2023-07-07', 'storm damage to roof', 20797.73, 'ADJ1', 16827.35, 'paid');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00045', 'POL100182', '2024-07-24', '2024-07-27', 'burst pipe water damage', 22384.02, 'ADJ6', NULL, 'open');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00046', 'POL100231', '2023-02-08', '2023-02-12', 'lost baggage', 8447.26, 'ADJ6', 7910.32, 'approved');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00047', 'POL100266', '2024-02-05', '2024-02-14', 'burst pipe water damage', 20589.83, 'ADJ4', NULL, 'denied');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00048', 'POL100413', '2024-11-25', '2024-12-01', 'storm damage to roof', 1176.25, 'ADJ6', 1171.18, 'paid');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00049', 'POL100021', '2023-12-03', '2023-12-07', 'parking damage', 3198.42, 'ADJ1', NULL, 'denied');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00050', 'POL100224', '2024-12-15', '2024-12-18', 'storm damage to roof', 4386.21, 'ADJ3', 4095.06, 'paid');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00051', 'POL100105', '2023-10-17', '2023-10-23', 'flight delay', 1788.1, 'ADJ2', NULL, 'open');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00052', 'POL100448', '2024-06-01', '2024-06-06', 'windscreen crack', 5804.12, 'ADJ6', 3659.34, 'paid');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00053', 'POL100266', '2024-01-23', '2024-01-28', 'storm damage to roof', 10118.71, 'ADJ1', NULL, 'denied');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00054', 'POL100378', '2023-11-30', '2023-12-03', 'parking damage', 19817.83, 'ADJ8', 16168.84, 'paid');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00055', 'POL100392', '2024-04-26', '2024-04-28', 'windscreen crack', 8823.01, 'ADJ2', 5574.1, 'paid');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00056', 'POL100441', '2024-04-20', '2024-04-30', 'kitchen fire', 6825.61, 'ADJ1', 4242.15, 'paid');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00057', 'POL100007', '2023-04-14', '2023-04-20', 'medical treatment abroad', 3001.01, 'ADJ7', 2846.41, 'approved');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00058', 'POL100294', '2023-09-04', '2023-09-07', 'parking damage', 5927.34, 'ADJ8', NULL, 'open');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00059', 'POL100028', '2024-05-11', '2024-05-11', 'windscreen crack', 18712.48, 'ADJ5', NULL, 'open');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00060', 'POL100448', '2024-05-08', '2024-05-14', 'parking damage', 957.6, 'ADJ8', 621.36, 'approved');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00061', 'POL100175', '2024-09-13', '2024-09-17', 'storm damage to roof', 18561.34, 'ADJ1', NULL, 'open');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00062', 'POL100084', '2023-07-02', '2023-07-05', 'trip cancellation', 4380.59, 'ADJ6', 3194.76, 'approved');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00063', 'POL100378', '2024-05-22', '2024-05-28', 'rear-end collision', 2339.44, 'ADJ7', 1565.2, 'paid');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00064', 'POL100238', '2025-03-06', '2025-03-11', 'burglary', 12030.57, 'ADJ7', NULL, 'denied');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00065', 'POL100245', '2023-02-21', '2023-02-22', 'trip cancellation', 4614.31, 'ADJ6', 3887.33, 'paid');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00066', 'POL100462', '2024-02-21', '2024-02-24', 'flight delay', 10094.33, 'ADJ3', NULL, 'denied');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00067', 'POL100224', '2024-02-27', '2024-03-02', 'burst pipe water damage', 21978.0, 'ADJ4', NULL, 'open');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00068', 'POL100091', '2024-11-24', '2024-11-25', 'windscreen crack', 17468.94, 'ADJ2', 10973.61, 'paid');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00069', 'POL100392', '2024-04-27', '2024-04-27', 'parking damage', 20031.55, 'ADJ1', 17025.3, 'paid');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00070', 'POL100175', '2025-05-30', '2025-06-03', 'storm damage to roof', 12852.77, 'ADJ3', NULL, 'denied');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00071', 'POL100413', '2024-05-10', '2024-05-13', 'kitchen fire', 6745.53, 'ADJ7', NULL, 'open');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00072', 'POL100098', '2024-02-18', '2024-02-19', 'kitchen fire', 2964.59, 'ADJ1', 2271.23, 'approved');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00073', 'POL100105', '2023-10-10', '2023-10-12', 'medical treatment abroad', 3022.16, 'ADJ8', 2958.79, 'approved');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00074', 'POL100049', '2023-06-27', '2023-07-07', 'burst pipe water damage', 16781.74, 'ADJ2', NULL, 'open');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00075', 'POL100224', '2025-01-15', '2025-01-25', 'kitchen fire', 17352.73, 'ADJ7', NULL, 'open');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00076', 'POL100014', '2024-09-08', '2024-09-17', 'burst pipe water damage', 11272.76, 'ADJ2', NULL, 'open');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00077', 'POL100182', '2024-11-28', '2024-12-04', 'storm damage to roof', 12013.93, 'ADJ8', 9875.05, 'paid');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00078', 'POL100056', '2024-03-10', '2024-03-14', 'windscreen crack', 14230.52, 'ADJ5', 10002.98, 'paid');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00079', 'POL100035', '2024-02-28', '2024-03-01', 'storm damage to roof', 23933.41, 'ADJ7', 14372.64, 'paid');
INSERT INTO claims (claim_id, policy_number, incident_date, reported_on, description, claimed_amount, adjuster_id, assessed_amount, status) VALUES ('CLM00080', 'POL100217', '2023-03-25', '2023-04-01', 'vehicle theft', 7151.29, 'ADJ8', 5944.46, 'paid');

CREATE TABLE claim_payments (
  payment_id TEXT PRIMARY KEY,
  claim_id TEXT,
  paid_on TEXT,
  amount REAL,
  FOREIGN KEY (claim_id) REFERENCES claims(claim_id)
);
INSERT INTO claim_payments (payment_id, claim_id, paid_on, amount) VALUES ('CP0001', 'CLM00003', '2024-11-08', 3053.46);
INSERT INTO claim_payments (payment_id, claim_id, paid_on, amount) VALUES ('CP0002', 'CLM00009', '2024-04-07', 657.98);
INSERT INTO claim_payments (payment_id, claim_id, paid_on, amount) VALUES ('CP0003', 'CLM00012', '2023-11-18', 1246.08);
INSERT INTO claim_payments (payment_id, claim_id, paid_on, amount) VALUES ('CP0004', 'CLM00013', '2023-08-27', 1958.96);
INSERT INTO claim_payments (payment_id, claim_id, paid_on, amount) VALUES ('CP0005', 'CLM00014', '2024-04-01', 1029.26);
INSERT INTO claim_payments (payment_id, claim_id, paid_on, amount) VALUES ('CP0006', 'CLM00015', '2023-10-28', 1701.3);
INSERT INTO claim_payments (payment_id, claim_id, paid_on, amount) VALUES ('CP0007', 'CLM00018', '2023-08-01', 9345.07);
INSERT INTO claim_payments (payment_id, claim_id, paid_on, amount) VALUES ('CP0008', 'CLM00021', '2024-03-27', 483.8);
INSERT INTO claim_payments (payment_id, claim_id, paid_on, amount) VALUES ('CP0009', 'CLM00023', '2023-11-30', 415.04);
INSERT INTO claim_payments (payment_id, claim_id, paid_on, amount) VALUES ('CP0010', 'CLM00026', '2024-09-04', 3486.03);
INSERT INTO claim_payments (payment_id, claim_id, paid_on, amount) VALUES ('CP0011', 'CLM00029', '2023-11-05', 3596.59);
INSERT INTO claim_payments (payment_id, claim_id, paid_on, amount) VALUES ('CP0012', 'CLM00030', '2024-07-15', 8788.96);
INSERT INTO claim_payments (payment_id, claim_id, paid_on, amount) VALUES ('CP0013', 'CLM00033', '2023-04-07', 5671.76);
INSERT INTO claim_payments (payment_id, claim_id, paid_on, amount) VALUES ('CP0014', 'CLM00035', '2023-09-11', 17262.41);
INSERT INTO claim_payments (payment_id, claim_id, paid_on, amount) VALUES ('CP0015', 'CLM00038', '2023-04-15', 10289.36);
INSERT INTO claim_payments (payment_id, claim_id, paid_on, amount) VALUES ('CP0016', 'CLM00041', '2024-09-09', 4307.61);
INSERT INTO claim_payments (payment_id, claim_id, paid_on, amount) VALUES ('CP0017', 'CLM00043', '2023-03-24', 10425.27);
INSERT INTO claim_payments (payment_id, claim_id, paid_on, amount) VALUES ('CP0018', 'CLM00044', '2023-07-26', 16327.35);
INSERT INTO claim_payments (payment_id, claim_id, paid_on, amount) VALUES ('CP0019', 'CLM00048', '2025-01-02', 571.18);
INSERT INTO claim_payments (payment_id, claim_id, paid_on, amount) VALUES ('CP0020', 'CLM00050', '2025-01-11', 3345.06);
INSERT INTO claim_payments (payment_id, claim_id, paid_on, amount) VALUES ('CP0021', 'CLM00052', '2024-06-26', 3309.34);
INSERT INTO claim_payments (payment_id, claim_id, paid_on, amount) VALUES ('CP0022', 'CLM00054', '2023-12-20', 15718.84);
INSERT INTO claim_payments (payment_id, claim_id, paid_on, amount) VALUES ('CP0023', 'CLM00055', '2024-06-10', 5124.1);
INSERT INTO claim_payments (payment_id, claim_id, paid_on, amount) VALUES ('CP0024', 'CLM00056', '2024-05-25', 3442.15);
INSERT INTO claim_payments (payment_id, claim_id, paid_on, amount) VALUES ('CP0025', 'CLM00063', '2024-06-18', 1115.2);
INSERT INTO claim_payments (payment_id, claim_id, paid_on, amount) VALUES ('CP0026', 'CLM00065', '2023-04-22', 3787.33);
INSERT INTO claim_payments (payment_id, claim_id, paid_on, amount) VALUES ('CP0027', 'CLM00068', '2024-12-16', 10873.61);
INSERT INTO claim_payments (payment_id, claim_id, paid_on, amount) VALUES ('CP0028', 'CLM00069', '2024-06-04', 16575.3);
INSERT INTO claim_payments (payment_id, claim_id, paid_on, amount) VALUES ('CP0029', 'CLM00077', '2024-12-31', 8925.05);
INSERT INTO claim_payments (payment_id, claim_id, paid_on, amount) VALUES ('CP0030', 'CLM00078', '2024-04-14', 9852.98);
INSERT INTO claim_payments (payment_id, claim_id, paid_on, amount) VALUES ('CP0031', 'CLM00079', '2024-04-02', 13372.64);
INSERT INTO claim_payments (payment_id, claim_id, paid_on, amount) VALUES ('CP0032', 'CLM00080', '2023-05-02', 5844.46);
COMMIT;
