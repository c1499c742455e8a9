"""Write the shipped sample corpus under data/corpus/ that stage 01_mine.py retrieves from.

Each topic folder (data/corpus/<topic>/) holds 2-5 files in mixed formats - CSV, TSV, JSON
record lists, nested ID-keyed JSON exports, HTML tables, Markdown tables, SQL dumps and YAML
record lists - whose tables reference each other by key columns. Every file opens with a short
description in the vocabulary of the themes it serves (see TOPIC_THEMES), so BM25 over the
file text finds it. Reference facts (countries, currencies, languages, airports, airlines,
chemical elements, SI units, time zones, US states, planets, classic books, crops, medicines)
come from the tables in this file; every other record is sample data drawn from a
random.Random seeded per topic from --seed, so a rerun rewrites every file byte for byte.
The script also writes data/corpus/SOURCES.md (file provenance, topic -> themes, warts).

  python data/make_corpus.py                  # rewrite data/corpus/
  python data/make_corpus.py --out /tmp/c     # write elsewhere (reproducibility check)
"""
import argparse
import csv
import hashlib
import html
import io
import json
import random
import shutil
from datetime import date, timedelta
from pathlib import Path

# ---------------------------------------------------------------------------- reference facts
# Only facts we are sure of; where a fact is disputed or changes often, it is left out.

# ISO 3166-1 alpha-2, alpha-3, short name, capital, continent, ISO 4217 currency, calling code
COUNTRIES = [
    ("US", "USA", "United States", "Washington, D.C.", "North America", "USD", 1),
    ("CA", "CAN", "Canada", "Ottawa", "North America", "CAD", 1),
    ("MX", "MEX", "Mexico", "Mexico City", "North America", "MXN", 52),
    ("BR", "BRA", "Brazil", "Brasília", "South America", "BRL", 55),
    ("AR", "ARG", "Argentina", "Buenos Aires", "South America", "ARS", 54),
    ("CL", "CHL", "Chile", "Santiago", "South America", "CLP", 56),
    ("CO", "COL", "Colombia", "Bogotá", "South America", "COP", 57),
    ("PE", "PER", "Peru", "Lima", "South America", "PEN", 51),
    ("GB", "GBR", "United Kingdom", "London", "Europe", "GBP", 44),
    ("IE", "IRL", "Ireland", "Dublin", "Europe", "EUR", 353),
    ("FR", "FRA", "France", "Paris", "Europe", "EUR", 33),
    ("DE", "DEU", "Germany", "Berlin", "Europe", "EUR", 49),
    ("NL", "NLD", "Netherlands", "Amsterdam", "Europe", "EUR", 31),
    ("BE", "BEL", "Belgium", "Brussels", "Europe", "EUR", 32),
    ("ES", "ESP", "Spain", "Madrid", "Europe", "EUR", 34),
    ("PT", "PRT", "Portugal", "Lisbon", "Europe", "EUR", 351),
    ("IT", "ITA", "Italy", "Rome", "Europe", "EUR", 39),
    ("CH", "CHE", "Switzerland", "Bern", "Europe", "CHF", 41),
    ("AT", "AUT", "Austria", "Vienna", "Europe", "EUR", 43),
    ("DK", "DNK", "Denmark", "Copenhagen", "Europe", "DKK", 45),
    ("SE", "SWE", "Sweden", "Stockholm", "Europe", "SEK", 46),
    ("NO", "NOR", "Norway", "Oslo", "Europe", "NOK", 47),
    ("FI", "FIN", "Finland", "Helsinki", "Europe", "EUR", 358),
    ("IS", "ISL", "Iceland", "Reykjavík", "Europe", "ISK", 354),
    ("PL", "POL", "Poland", "Warsaw", "Europe", "PLN", 48),
    ("CZ", "CZE", "Czechia", "Prague", "Europe", "CZK", 420),
    ("HU", "HUN", "Hungary", "Budapest", "Europe", "HUF", 36),
    ("GR", "GRC", "Greece", "Athens", "Europe", "EUR", 30),
    ("UA", "UKR", "Ukraine", "Kyiv", "Europe", "UAH", 380),
    ("RU", "RUS", "Russia", "Moscow", "Europe", "RUB", 7),
    ("TR", "TUR", "Türkiye", "Ankara", "Asia", "TRY", 90),
    ("EG", "EGY", "Egypt", "Cairo", "Africa", "EGP", 20),
    ("MA", "MAR", "Morocco", "Rabat", "Africa", "MAD", 212),
    ("NG", "NGA", "Nigeria", "Abuja", "Africa", "NGN", 234),
    ("GH", "GHA", "Ghana", "Accra", "Africa", "GHS", 233),
    ("ET", "ETH", "Ethiopia", "Addis Ababa", "Africa", "ETB", 251),
    ("KE", "KEN", "Kenya", "Nairobi", "Africa", "KES", 254),
    ("ZA", "ZAF", "South Africa", "Pretoria", "Africa", "ZAR", 27),
    ("AE", "ARE", "United Arab Emirates", "Abu Dhabi", "Asia", "AED", 971),
    ("QA", "QAT", "Qatar", "Doha", "Asia", "QAR", 974),
    ("SA", "SAU", "Saudi Arabia", "Riyadh", "Asia", "SAR", 966),
    ("IN", "IND", "India", "New Delhi", "Asia", "INR", 91),
    ("PK", "PAK", "Pakistan", "Islamabad", "Asia", "PKR", 92),
    ("BD", "BGD", "Bangladesh", "Dhaka", "Asia", "BDT", 880),
    ("CN", "CHN", "China", "Beijing", "Asia", "CNY", 86),
    ("JP", "JPN", "Japan", "Tokyo", "Asia", "JPY", 81),
    ("KR", "KOR", "South Korea", "Seoul", "Asia", "KRW", 82),
    ("SG", "SGP", "Singapore", "Singapore", "Asia", "SGD", 65),
    ("TH", "THA", "Thailand", "Bangkok", "Asia", "THB", 66),
    ("MY", "MYS", "Malaysia", "Kuala Lumpur", "Asia", "MYR", 60),
    ("PH", "PHL", "Philippines", "Manila", "Asia", "PHP", 63),
    ("VN", "VNM", "Vietnam", "Hanoi", "Asia", "VND", 84),
    ("AU", "AUS", "Australia", "Canberra", "Oceania", "AUD", 61),
    ("NZ", "NZL", "New Zealand", "Wellington", "Oceania", "NZD", 64),
]

# ISO 4217 alphabetic code, currency name, minor units
CURRENCIES = [
    ("USD", "US Dollar", 2), ("CAD", "Canadian Dollar", 2), ("MXN", "Mexican Peso", 2),
    ("BRL", "Brazilian Real", 2), ("ARS", "Argentine Peso", 2), ("CLP", "Chilean Peso", 0),
    ("COP", "Colombian Peso", 2), ("PEN", "Sol", 2), ("GBP", "Pound Sterling", 2),
    ("EUR", "Euro", 2), ("CHF", "Swiss Franc", 2), ("DKK", "Danish Krone", 2),
    ("SEK", "Swedish Krona", 2), ("NOK", "Norwegian Krone", 2), ("ISK", "Iceland Krona", 0),
    ("PLN", "Zloty", 2), ("CZK", "Czech Koruna", 2), ("HUF", "Forint", 2),
    ("UAH", "Hryvnia", 2), ("RUB", "Russian Ruble", 2), ("TRY", "Turkish Lira", 2),
    ("EGP", "Egyptian Pound", 2), ("MAD", "Moroccan Dirham", 2), ("NGN", "Naira", 2),
    ("GHS", "Ghana Cedi", 2), ("ETB", "Ethiopian Birr", 2), ("KES", "Kenyan Shilling", 2),
    ("ZAR", "Rand", 2), ("AED", "UAE Dirham", 2), ("QAR", "Qatari Rial", 2),
    ("SAR", "Saudi Riyal", 2), ("INR", "Indian Rupee", 2), ("PKR", "Pakistan Rupee", 2),
    ("BDT", "Taka", 2), ("CNY", "Yuan Renminbi", 2), ("JPY", "Yen", 0), ("KRW", "Won", 0),
    ("SGD", "Singapore Dollar", 2), ("THB", "Baht", 2), ("MYR", "Malaysian Ringgit", 2),
    ("PHP", "Philippine Peso", 2), ("VND", "Dong", 0), ("AUD", "Australian Dollar", 2),
    ("NZD", "New Zealand Dollar", 2),
]

# ISO 639-1 code, English name
LANGUAGES = [
    ("en", "English"), ("es", "Spanish"), ("fr", "French"), ("de", "German"),
    ("pt", "Portuguese"), ("it", "Italian"), ("nl", "Dutch"), ("ga", "Irish"),
    ("da", "Danish"), ("sv", "Swedish"), ("no", "Norwegian"), ("fi", "Finnish"),
    ("is", "Icelandic"), ("pl", "Polish"), ("cs", "Czech"), ("hu", "Hungarian"),
    ("el", "Greek"), ("uk", "Ukrainian"), ("ru", "Russian"), ("tr", "Turkish"),
    ("ar", "Arabic"), ("ha", "Hausa"), ("yo", "Yoruba"), ("am", "Amharic"),
    ("sw", "Swahili"), ("af", "Afrikaans"), ("zu", "Zulu"), ("hi", "Hindi"),
    ("bn", "Bengali"), ("ta", "Tamil"), ("ur", "Urdu"), ("zh", "Chinese"),
    ("ja", "Japanese"), ("ko", "Korean"), ("ms", "Malay"), ("th", "Thai"),
    ("tl", "Tagalog"), ("vi", "Vietnamese"), ("mi", "Maori"),
]

# main languages widely spoken in each country (not a statement of official status)
COUNTRY_LANGUAGES = {
    "US": ["en", "es"], "CA": ["en", "fr"], "MX": ["es"], "BR": ["pt"], "AR": ["es"],
    "CL": ["es"], "CO": ["es"], "PE": ["es"], "GB": ["en"], "IE": ["en", "ga"],
    "FR": ["fr"], "DE": ["de"], "NL": ["nl"], "BE": ["nl", "fr", "de"], "ES": ["es"],
    "PT": ["pt"], "IT": ["it"], "CH": ["de", "fr", "it"], "AT": ["de"], "DK": ["da"],
    "SE": ["sv"], "NO": ["no"], "FI": ["fi", "sv"], "IS": ["is"], "PL": ["pl"],
    "CZ": ["cs"], "HU": ["hu"], "GR": ["el"], "UA": ["uk"], "RU": ["ru"], "TR": ["tr"],
    "EG": ["ar"], "MA": ["ar"], "NG": ["en", "ha", "yo"], "GH": ["en"], "ET": ["am"],
    "KE": ["sw", "en"], "ZA": ["zu", "af", "en"], "AE": ["ar"], "QA": ["ar"],
    "SA": ["ar"], "IN": ["hi", "en", "bn", "ta"], "PK": ["ur", "en"], "BD": ["bn"],
    "CN": ["zh"], "JP": ["ja"], "KR": ["ko"], "SG": ["en", "ms", "zh", "ta"],
    "TH": ["th"], "MY": ["ms"], "PH": ["tl", "en"], "VN": ["vi"], "AU": ["en"],
    "NZ": ["en", "mi"],
}

# IANA time zone id, standard (non-daylight-saving) UTC offset, ISO 3166-1 country
TIME_ZONES = [
    ("America/New_York", "-05:00", "US"), ("America/Chicago", "-06:00", "US"),
    ("America/Denver", "-07:00", "US"), ("America/Los_Angeles", "-08:00", "US"),
    ("America/Anchorage", "-09:00", "US"), ("Pacific/Honolulu", "-10:00", "US"),
    ("America/Toronto", "-05:00", "CA"), ("America/Vancouver", "-08:00", "CA"),
    ("America/Mexico_City", "-06:00", "MX"), ("America/Sao_Paulo", "-03:00", "BR"),
    ("America/Argentina/Buenos_Aires", "-03:00", "AR"), ("America/Santiago", "-04:00", "CL"),
    ("America/Bogota", "-05:00", "CO"), ("America/Lima", "-05:00", "PE"),
    ("Europe/London", "+00:00", "GB"), ("Europe/Lisbon", "+00:00", "PT"),
    ("Atlantic/Reykjavik", "+00:00", "IS"), ("Europe/Paris", "+01:00", "FR"),
    ("Europe/Berlin", "+01:00", "DE"), ("Europe/Amsterdam", "+01:00", "NL"),
    ("Europe/Brussels", "+01:00", "BE"), ("Europe/Madrid", "+01:00", "ES"),
    ("Europe/Rome", "+01:00", "IT"), ("Europe/Zurich", "+01:00", "CH"),
    ("Europe/Vienna", "+01:00", "AT"), ("Europe/Copenhagen", "+01:00", "DK"),
    ("Europe/Stockholm", "+01:00", "SE"), ("Europe/Oslo", "+01:00", "NO"),
    ("Europe/Warsaw", "+01:00", "PL"), ("Europe/Prague", "+01:00", "CZ"),
    ("Europe/Budapest", "+01:00", "HU"), ("Europe/Helsinki", "+02:00", "FI"),
    ("Europe/Athens", "+02:00", "GR"), ("Europe/Kyiv", "+02:00", "UA"),
    ("Europe/Moscow", "+03:00", "RU"), ("Europe/Istanbul", "+03:00", "TR"),
    ("Africa/Cairo", "+02:00", "EG"), ("Africa/Johannesburg", "+02:00", "ZA"),
    ("Africa/Lagos", "+01:00", "NG"), ("Africa/Accra", "+00:00", "GH"),
    ("Africa/Nairobi", "+03:00", "KE"), ("Africa/Addis_Ababa", "+03:00", "ET"),
    ("Asia/Dubai", "+04:00", "AE"), ("Asia/Qatar", "+03:00", "QA"),
    ("Asia/Riyadh", "+03:00", "SA"), ("Asia/Kolkata", "+05:30", "IN"),
    ("Asia/Karachi", "+05:00", "PK"), ("Asia/Dhaka", "+06:00", "BD"),
    ("Asia/Shanghai", "+08:00", "CN"), ("Asia/Tokyo", "+09:00", "JP"),
    ("Asia/Seoul", "+09:00", "KR"), ("Asia/Singapore", "+08:00", "SG"),
    ("Asia/Bangkok", "+07:00", "TH"), ("Asia/Kuala_Lumpur", "+08:00", "MY"),
    ("Asia/Manila", "+08:00", "PH"), ("Asia/Ho_Chi_Minh", "+07:00", "VN"),
    ("Australia/Sydney", "+10:00", "AU"), ("Australia/Melbourne", "+10:00", "AU"),
    ("Pacific/Auckland", "+12:00", "NZ"),
]

# major city, country, IANA time zone, national capital?
CITIES = [
    ("New York", "US", "America/New_York", False), ("Washington, D.C.", "US", "America/New_York", True),
    ("Boston", "US", "America/New_York", False), ("Atlanta", "US", "America/New_York", False),
    ("Miami", "US", "America/New_York", False), ("Chicago", "US", "America/Chicago", False),
    ("Dallas", "US", "America/Chicago", False), ("Denver", "US", "America/Denver", False),
    ("Los Angeles", "US", "America/Los_Angeles", False), ("San Francisco", "US", "America/Los_Angeles", False),
    ("Seattle", "US", "America/Los_Angeles", False), ("Anchorage", "US", "America/Anchorage", False),
    ("Honolulu", "US", "Pacific/Honolulu", False), ("Toronto", "CA", "America/Toronto", False),
    ("Ottawa", "CA", "America/Toronto", True), ("Vancouver", "CA", "America/Vancouver", False),
    ("Mexico City", "MX", "America/Mexico_City", True), ("São Paulo", "BR", "America/Sao_Paulo", False),
    ("Brasília", "BR", "America/Sao_Paulo", True), ("Buenos Aires", "AR", "America/Argentina/Buenos_Aires", True),
    ("Santiago", "CL", "America/Santiago", True), ("Bogotá", "CO", "America/Bogota", True),
    ("Lima", "PE", "America/Lima", True), ("London", "GB", "Europe/London", True),
    ("Lisbon", "PT", "Europe/Lisbon", True), ("Reykjavík", "IS", "Atlantic/Reykjavik", True),
    ("Paris", "FR", "Europe/Paris", True), ("Berlin", "DE", "Europe/Berlin", True),
    ("Frankfurt", "DE", "Europe/Berlin", False), ("Munich", "DE", "Europe/Berlin", False),
    ("Amsterdam", "NL", "Europe/Amsterdam", True), ("Brussels", "BE", "Europe/Brussels", True),
    ("Madrid", "ES", "Europe/Madrid", True), ("Barcelona", "ES", "Europe/Madrid", False),
    ("Rome", "IT", "Europe/Rome", True), ("Milan", "IT", "Europe/Rome", False),
    ("Zurich", "CH", "Europe/Zurich", False), ("Bern", "CH", "Europe/Zurich", True),
    ("Vienna", "AT", "Europe/Vienna", True), ("Copenhagen", "DK", "Europe/Copenhagen", True),
    ("Stockholm", "SE", "Europe/Stockholm", True), ("Oslo", "NO", "Europe/Oslo", True),
    ("Warsaw", "PL", "Europe/Warsaw", True), ("Prague", "CZ", "Europe/Prague", True),
    ("Budapest", "HU", "Europe/Budapest", True), ("Helsinki", "FI", "Europe/Helsinki", True),
    ("Athens", "GR", "Europe/Athens", True), ("Kyiv", "UA", "Europe/Kyiv", True),
    ("Moscow", "RU", "Europe/Moscow", True), ("Istanbul", "TR", "Europe/Istanbul", False),
    ("Ankara", "TR", "Europe/Istanbul", True), ("Cairo", "EG", "Africa/Cairo", True),
    ("Johannesburg", "ZA", "Africa/Johannesburg", False), ("Cape Town", "ZA", "Africa/Johannesburg", False),
    ("Pretoria", "ZA", "Africa/Johannesburg", True), ("Lagos", "NG", "Africa/Lagos", False),
    ("Abuja", "NG", "Africa/Lagos", True), ("Accra", "GH", "Africa/Accra", True),
    ("Nairobi", "KE", "Africa/Nairobi", True), ("Addis Ababa", "ET", "Africa/Addis_Ababa", True),
    ("Dubai", "AE", "Asia/Dubai", False), ("Abu Dhabi", "AE", "Asia/Dubai", True),
    ("Doha", "QA", "Asia/Qatar", True), ("Riyadh", "SA", "Asia/Riyadh", True),
    ("New Delhi", "IN", "Asia/Kolkata", True), ("Mumbai", "IN", "Asia/Kolkata", False),
    ("Karachi", "PK", "Asia/Karachi", False), ("Islamabad", "PK", "Asia/Karachi", True),
    ("Dhaka", "BD", "Asia/Dhaka", True), ("Beijing", "CN", "Asia/Shanghai", True),
    ("Shanghai", "CN", "Asia/Shanghai", False), ("Tokyo", "JP", "Asia/Tokyo", True),
    ("Osaka", "JP", "Asia/Tokyo", False), ("Seoul", "KR", "Asia/Seoul", True),
    ("Singapore", "SG", "Asia/Singapore", True), ("Bangkok", "TH", "Asia/Bangkok", True),
    ("Kuala Lumpur", "MY", "Asia/Kuala_Lumpur", True), ("Manila", "PH", "Asia/Manila", True),
    ("Hanoi", "VN", "Asia/Ho_Chi_Minh", True), ("Ho Chi Minh City", "VN", "Asia/Ho_Chi_Minh", False),
    ("Sydney", "AU", "Australia/Sydney", False), ("Canberra", "AU", "Australia/Sydney", True),
    ("Melbourne", "AU", "Australia/Melbourne", False), ("Auckland", "NZ", "Pacific/Auckland", False),
    ("Wellington", "NZ", "Pacific/Auckland", True),
]

# IATA code, ICAO code, airport name, city served, ISO 3166-1 country
AIRPORTS = [
    ("ATL", "KATL", "Hartsfield-Jackson Atlanta International Airport", "Atlanta", "US"),
    ("LAX", "KLAX", "Los Angeles International Airport", "Los Angeles", "US"),
    ("ORD", "KORD", "O'Hare International Airport", "Chicago", "US"),
    ("DFW", "KDFW", "Dallas Fort Worth International Airport", "Dallas", "US"),
    ("DEN", "KDEN", "Denver International Airport", "Denver", "US"),
    ("JFK", "KJFK", "John F. Kennedy International Airport", "New York", "US"),
    ("SFO", "KSFO", "San Francisco International Airport", "San Francisco", "US"),
    ("SEA", "KSEA", "Seattle-Tacoma International Airport", "Seattle", "US"),
    ("MIA", "KMIA", "Miami International Airport", "Miami", "US"),
    ("BOS", "KBOS", "Logan International Airport", "Boston", "US"),
    ("YYZ", "CYYZ", "Toronto Pearson International Airport", "Toronto", "CA"),
    ("YVR", "CYVR", "Vancouver International Airport", "Vancouver", "CA"),
    ("MEX", "MMMX", "Mexico City International Airport", "Mexico City", "MX"),
    ("GRU", "SBGR", "São Paulo/Guarulhos International Airport", "São Paulo", "BR"),
    ("EZE", "SAEZ", "Ministro Pistarini International Airport", "Buenos Aires", "AR"),
    ("SCL", "SCEL", "Arturo Merino Benítez International Airport", "Santiago", "CL"),
    ("BOG", "SKBO", "El Dorado International Airport", "Bogotá", "CO"),
    ("LIM", "SPJC", "Jorge Chávez International Airport", "Lima", "PE"),
    ("LHR", "EGLL", "Heathrow Airport", "London", "GB"),
    ("LGW", "EGKK", "Gatwick Airport", "London", "GB"),
    ("DUB", "EIDW", "Dublin Airport", "Dublin", "IE"),
    ("CDG", "LFPG", "Paris Charles de Gaulle Airport", "Paris", "FR"),
    ("FRA", "EDDF", "Frankfurt Airport", "Frankfurt", "DE"),
    ("MUC", "EDDM", "Munich Airport", "Munich", "DE"),
    ("AMS", "EHAM", "Amsterdam Airport Schiphol", "Amsterdam", "NL"),
    ("BRU", "EBBR", "Brussels Airport", "Brussels", "BE"),
    ("MAD", "LEMD", "Adolfo Suárez Madrid-Barajas Airport", "Madrid", "ES"),
    ("BCN", "LEBL", "Barcelona-El Prat Airport", "Barcelona", "ES"),
    ("LIS", "LPPT", "Lisbon Humberto Delgado Airport", "Lisbon", "PT"),
    ("FCO", "LIRF", "Rome Fiumicino Airport", "Rome", "IT"),
    ("ZRH", "LSZH", "Zurich Airport", "Zurich", "CH"),
    ("VIE", "LOWW", "Vienna International Airport", "Vienna", "AT"),
    ("CPH", "EKCH", "Copenhagen Airport", "Copenhagen", "DK"),
    ("ARN", "ESSA", "Stockholm Arlanda Airport", "Stockholm", "SE"),
    ("OSL", "ENGM", "Oslo Airport, Gardermoen", "Oslo", "NO"),
    ("HEL", "EFHK", "Helsinki Airport", "Helsinki", "FI"),
    ("KEF", "BIKF", "Keflavík International Airport", "Reykjavík", "IS"),
    ("WAW", "EPWA", "Warsaw Chopin Airport", "Warsaw", "PL"),
    ("PRG", "LKPR", "Václav Havel Airport Prague", "Prague", "CZ"),
    ("BUD", "LHBP", "Budapest Ferenc Liszt International Airport", "Budapest", "HU"),
    ("ATH", "LGAV", "Athens International Airport", "Athens", "GR"),
    ("IST", "LTFM", "Istanbul Airport", "Istanbul", "TR"),
    ("CAI", "HECA", "Cairo International Airport", "Cairo", "EG"),
    ("CMN", "GMMN", "Mohammed V International Airport", "Casablanca", "MA"),
    ("LOS", "DNMM", "Murtala Muhammed International Airport", "Lagos", "NG"),
    ("ACC", "DGAA", "Kotoka International Airport", "Accra", "GH"),
    ("ADD", "HAAB", "Addis Ababa Bole International Airport", "Addis Ababa", "ET"),
    ("NBO", "HKJK", "Jomo Kenyatta International Airport", "Nairobi", "KE"),
    ("JNB", "FAOR", "O. R. Tambo International Airport", "Johannesburg", "ZA"),
    ("CPT", "FACT", "Cape Town International Airport", "Cape Town", "ZA"),
    ("DXB", "OMDB", "Dubai International Airport", "Dubai", "AE"),
    ("DOH", "OTHH", "Hamad International Airport", "Doha", "QA"),
    ("RUH", "OERK", "King Khalid International Airport", "Riyadh", "SA"),
    ("DEL", "VIDP", "Indira Gandhi International Airport", "Delhi", "IN"),
    ("BOM", "VABB", "Chhatrapati Shivaji Maharaj International Airport", "Mumbai", "IN"),
    ("KHI", "OPKC", "Jinnah International Airport", "Karachi", "PK"),
    ("DAC", "VGHS", "Hazrat Shahjalal International Airport", "Dhaka", "BD"),
    ("PEK", "ZBAA", "Beijing Capital International Airport", "Beijing", "CN"),
    ("PVG", "ZSPD", "Shanghai Pudong International Airport", "Shanghai", "CN"),
    ("HND", "RJTT", "Haneda Airport", "Tokyo", "JP"),
    ("NRT", "RJAA", "Narita International Airport", "Tokyo", "JP"),
    ("ICN", "RKSI", "Incheon International Airport", "Seoul", "KR"),
    ("SIN", "WSSS", "Singapore Changi Airport", "Singapore", "SG"),
    ("BKK", "VTBS", "Suvarnabhumi Airport", "Bangkok", "TH"),
    ("KUL", "WMKK", "Kuala Lumpur International Airport", "Kuala Lumpur", "MY"),
    ("MNL", "RPLL", "Ninoy Aquino International Airport", "Manila", "PH"),
    ("HAN", "VVNB", "Noi Bai International Airport", "Hanoi", "VN"),
    ("SGN", "VVTS", "Tan Son Nhat International Airport", "Ho Chi Minh City", "VN"),
    ("SYD", "YSSY", "Sydney Airport", "Sydney", "AU"),
    ("MEL", "YMML", "Melbourne Airport", "Melbourne", "AU"),
    ("AKL", "NZAA", "Auckland Airport", "Auckland", "NZ"),
    ("SVO", "UUEE", "Sheremetyevo International Airport", "Moscow", "RU"),
    ("KBP", "UKBB", "Boryspil International Airport", "Kyiv", "UA"),
]

# IATA designator, ICAO designator, airline name, ISO 3166-1 country, main hub (IATA)
AIRLINES = [
    ("AA", "AAL", "American Airlines", "US", "DFW"), ("DL", "DAL", "Delta Air Lines", "US", "ATL"),
    ("UA", "UAL", "United Airlines", "US", "ORD"), ("AS", "ASA", "Alaska Airlines", "US", "SEA"),
    ("B6", "JBU", "JetBlue", "US", "JFK"), ("AC", "ACA", "Air Canada", "CA", "YYZ"),
    ("AM", "AMX", "Aeroméxico", "MX", "MEX"), ("LA", "LAN", "LATAM Airlines", "CL", "SCL"),
    ("AR", "ARG", "Aerolíneas Argentinas", "AR", "EZE"), ("AV", "AVA", "Avianca", "CO", "BOG"),
    ("BA", "BAW", "British Airways", "GB", "LHR"), ("EI", "EIN", "Aer Lingus", "IE", "DUB"),
    ("AF", "AFR", "Air France", "FR", "CDG"), ("LH", "DLH", "Lufthansa", "DE", "FRA"),
    ("KL", "KLM", "KLM Royal Dutch Airlines", "NL", "AMS"), ("IB", "IBE", "Iberia", "ES", "MAD"),
    ("TP", "TAP", "TAP Air Portugal", "PT", "LIS"), ("LX", "SWR", "Swiss International Air Lines", "CH", "ZRH"),
    ("OS", "AUA", "Austrian Airlines", "AT", "VIE"), ("AY", "FIN", "Finnair", "FI", "HEL"),
    ("FI", "ICE", "Icelandair", "IS", "KEF"), ("LO", "LOT", "LOT Polish Airlines", "PL", "WAW"),
    ("TK", "THY", "Turkish Airlines", "TR", "IST"), ("MS", "MSR", "EgyptAir", "EG", "CAI"),
    ("AT", "RAM", "Royal Air Maroc", "MA", "CMN"), ("ET", "ETH", "Ethiopian Airlines", "ET", "ADD"),
    ("KQ", "KQA", "Kenya Airways", "KE", "NBO"), ("SA", "SAA", "South African Airways", "ZA", "JNB"),
    ("EK", "UAE", "Emirates", "AE", "DXB"), ("QR", "QTR", "Qatar Airways", "QA", "DOH"),
    ("AI", "AIC", "Air India", "IN", "DEL"), ("CA", "CCA", "Air China", "CN", "PEK"),
    ("MU", "CES", "China Eastern Airlines", "CN", "PVG"), ("NH", "ANA", "All Nippon Airways", "JP", "HND"),
    ("JL", "JAL", "Japan Airlines", "JP", "HND"), ("KE", "KAL", "Korean Air", "KR", "ICN"),
    ("SQ", "SIA", "Singapore Airlines", "SG", "SIN"), ("TG", "THA", "Thai Airways International", "TH", "BKK"),
    ("MH", "MAS", "Malaysia Airlines", "MY", "KUL"), ("PR", "PAL", "Philippine Airlines", "PH", "MNL"),
    ("VN", "HVN", "Vietnam Airlines", "VN", "HAN"), ("QF", "QFA", "Qantas", "AU", "SYD"),
    ("NZ", "ANZ", "Air New Zealand", "NZ", "AKL"),
]

# atomic number, symbol, name, IUPAC abridged standard atomic weight, period, group, category
ELEMENTS = [
    (1, "H", "Hydrogen", 1.008, 1, 1, "nonmetal"), (2, "He", "Helium", 4.0026, 1, 18, "noble gas"),
    (3, "Li", "Lithium", 6.94, 2, 1, "alkali metal"), (4, "Be", "Beryllium", 9.0122, 2, 2, "alkaline earth metal"),
    (5, "B", "Boron", 10.81, 2, 13, "metalloid"), (6, "C", "Carbon", 12.011, 2, 14, "nonmetal"),
    (7, "N", "Nitrogen", 14.007, 2, 15, "nonmetal"), (8, "O", "Oxygen", 15.999, 2, 16, "nonmetal"),
    (9, "F", "Fluorine", 18.998, 2, 17, "halogen"), (10, "Ne", "Neon", 20.180, 2, 18, "noble gas"),
    (11, "Na", "Sodium", 22.990, 3, 1, "alkali metal"), (12, "Mg", "Magnesium", 24.305, 3, 2, "alkaline earth metal"),
    (13, "Al", "Aluminium", 26.982, 3, 13, "post-transition metal"), (14, "Si", "Silicon", 28.085, 3, 14, "metalloid"),
    (15, "P", "Phosphorus", 30.974, 3, 15, "nonmetal"), (16, "S", "Sulfur", 32.06, 3, 16, "nonmetal"),
    (17, "Cl", "Chlorine", 35.45, 3, 17, "halogen"), (18, "Ar", "Argon", 39.95, 3, 18, "noble gas"),
    (19, "K", "Potassium", 39.098, 4, 1, "alkali metal"), (20, "Ca", "Calcium", 40.078, 4, 2, "alkaline earth metal"),
    (21, "Sc", "Scandium", 44.956, 4, 3, "transition metal"), (22, "Ti", "Titanium", 47.867, 4, 4, "transition metal"),
    (23, "V", "Vanadium", 50.942, 4, 5, "transition metal"), (24, "Cr", "Chromium", 51.996, 4, 6, "transition metal"),
    (25, "Mn", "Manganese", 54.938, 4, 7, "transition metal"), (26, "Fe", "Iron", 55.845, 4, 8, "transition metal"),
    (27, "Co", "Cobalt", 58.933, 4, 9, "transition metal"), (28, "Ni", "Nickel", 58.693, 4, 10, "transition metal"),
    (29, "Cu", "Copper", 63.546, 4, 11, "transition metal"), (30, "Zn", "Zinc", 65.38, 4, 12, "transition metal"),
    (31, "Ga", "Gallium", 69.723, 4, 13, "post-transition metal"), (32, "Ge", "Germanium", 72.630, 4, 14, "metalloid"),
    (33, "As", "Arsenic", 74.922, 4, 15, "metalloid"), (34, "Se", "Selenium", 78.971, 4, 16, "nonmetal"),
    (35, "Br", "Bromine", 79.904, 4, 17, "halogen"), (36, "Kr", "Krypton", 83.798, 4, 18, "noble gas"),
    (47, "Ag", "Silver", 107.87, 5, 11, "transition metal"), (50, "Sn", "Tin", 118.71, 5, 14, "post-transition metal"),
    (53, "I", "Iodine", 126.90, 5, 17, "halogen"), (54, "Xe", "Xenon", 131.29, 5, 18, "noble gas"),
    (78, "Pt", "Platinum", 195.08, 6, 10, "transition metal"), (79, "Au", "Gold", 196.97, 6, 11, "transition metal"),
    (80, "Hg", "Mercury", 200.59, 6, 12, "transition metal"), (82, "Pb", "Lead", 207.2, 6, 14, "post-transition metal"),
    (92, "U", "Uranium", 238.03, 7, None, "actinide"),
]

ELEMENT_CATEGORIES = [
    ("alkali metal", "Group 1 metals other than hydrogen; soft and reactive with water."),
    ("alkaline earth metal", "Group 2 metals; reactive and form ions with a charge of +2."),
    ("transition metal", "d-block elements of groups 3 to 12 (common classification)."),
    ("post-transition metal", "p-block metals to the right of the transition metals."),
    ("metalloid", "Elements with properties between those of metals and nonmetals."),
    ("nonmetal", "Reactive nonmetals other than the halogens, such as carbon and oxygen."),
    ("halogen", "Group 17 elements that form salts with metals."),
    ("noble gas", "Group 18 elements; unreactive monatomic gases under standard conditions."),
    ("actinide", "The fifteen f-block elements from actinium to lawrencium."),
]

# common name, formula, state at room temperature, composition {symbol: atoms}
COMPOUNDS = [
    ("water", "H2O", "liquid", {"H": 2, "O": 1}), ("carbon dioxide", "CO2", "gas", {"C": 1, "O": 2}),
    ("carbon monoxide", "CO", "gas", {"C": 1, "O": 1}), ("methane", "CH4", "gas", {"C": 1, "H": 4}),
    ("ammonia", "NH3", "gas", {"N": 1, "H": 3}), ("sodium chloride", "NaCl", "solid", {"Na": 1, "Cl": 1}),
    ("sulfuric acid", "H2SO4", "liquid", {"H": 2, "S": 1, "O": 4}),
    ("glucose", "C6H12O6", "solid", {"C": 6, "H": 12, "O": 6}),
    ("sucrose", "C12H22O11", "solid", {"C": 12, "H": 22, "O": 11}),
    ("ethanol", "C2H5OH", "liquid", {"C": 2, "H": 6, "O": 1}),
    ("acetic acid", "CH3COOH", "liquid", {"C": 2, "H": 4, "O": 2}),
    ("benzene", "C6H6", "liquid", {"C": 6, "H": 6}), ("hydrogen peroxide", "H2O2", "liquid", {"H": 2, "O": 2}),
    ("calcium carbonate", "CaCO3", "solid", {"Ca": 1, "C": 1, "O": 3}),
    ("sodium bicarbonate", "NaHCO3", "solid", {"Na": 1, "H": 1, "C": 1, "O": 3}),
    ("hydrogen chloride", "HCl", "gas", {"H": 1, "Cl": 1}), ("nitric acid", "HNO3", "liquid", {"H": 1, "N": 1, "O": 3}),
    ("potassium chloride", "KCl", "solid", {"K": 1, "Cl": 1}), ("magnesium oxide", "MgO", "solid", {"Mg": 1, "O": 1}),
    ("iron(III) oxide", "Fe2O3", "solid", {"Fe": 2, "O": 3}),
    ("copper(II) sulfate", "CuSO4", "solid", {"Cu": 1, "S": 1, "O": 4}),
    ("silicon dioxide", "SiO2", "solid", {"Si": 1, "O": 2}), ("ozone", "O3", "gas", {"O": 3}),
    ("nitrous oxide", "N2O", "gas", {"N": 2, "O": 1}), ("sodium hydroxide", "NaOH", "solid", {"Na": 1, "O": 1, "H": 1}),
    ("calcium hydroxide", "Ca(OH)2", "solid", {"Ca": 1, "O": 2, "H": 2}),
    ("aluminium oxide", "Al2O3", "solid", {"Al": 2, "O": 3}), ("zinc oxide", "ZnO", "solid", {"Zn": 1, "O": 1}),
    ("silver nitrate", "AgNO3", "solid", {"Ag": 1, "N": 1, "O": 3}),
    ("potassium permanganate", "KMnO4", "solid", {"K": 1, "Mn": 1, "O": 4}),
    ("sulfur dioxide", "SO2", "gas", {"S": 1, "O": 2}), ("nitrogen dioxide", "NO2", "gas", {"N": 1, "O": 2}),
    ("calcium chloride", "CaCl2", "solid", {"Ca": 1, "Cl": 2}), ("potassium iodide", "KI", "solid", {"K": 1, "I": 1}),
    ("boric acid", "H3BO3", "solid", {"H": 3, "B": 1, "O": 3}),
    ("lithium carbonate", "Li2CO3", "solid", {"Li": 2, "C": 1, "O": 3}),
    ("titanium dioxide", "TiO2", "solid", {"Ti": 1, "O": 2}), ("chromium(III) oxide", "Cr2O3", "solid", {"Cr": 2, "O": 3}),
    ("vanadium pentoxide", "V2O5", "solid", {"V": 2, "O": 5}), ("gallium arsenide", "GaAs", "solid", {"Ga": 1, "As": 1}),
    ("hydrogen bromide", "HBr", "gas", {"H": 1, "Br": 1}), ("lead(II) oxide", "PbO", "solid", {"Pb": 1, "O": 1}),
    ("tin(IV) oxide", "SnO2", "solid", {"Sn": 1, "O": 2}), ("mercury(II) oxide", "HgO", "solid", {"Hg": 1, "O": 1}),
    ("uranium dioxide", "UO2", "solid", {"U": 1, "O": 2}),
]

SI_BASE_UNITS = [
    ("m", "metre", "length"), ("kg", "kilogram", "mass"), ("s", "second", "time"),
    ("A", "ampere", "electric current"), ("K", "kelvin", "thermodynamic temperature"),
    ("mol", "mole", "amount of substance"), ("cd", "candela", "luminous intensity"),
]

# symbol, name, quantity, expression in SI base units
SI_DERIVED_UNITS = [
    ("rad", "radian", "plane angle", "m/m"), ("sr", "steradian", "solid angle", "m2/m2"),
    ("Hz", "hertz", "frequency", "s-1"), ("N", "newton", "force", "kg m s-2"),
    ("Pa", "pascal", "pressure, stress", "kg m-1 s-2"), ("J", "joule", "energy, work, amount of heat", "kg m2 s-2"),
    ("W", "watt", "power", "kg m2 s-3"), ("C", "coulomb", "electric charge", "A s"),
    ("V", "volt", "electric potential difference", "kg m2 s-3 A-1"), ("F", "farad", "capacitance", "kg-1 m-2 s4 A2"),
    ("Ω", "ohm", "electric resistance", "kg m2 s-3 A-2"), ("S", "siemens", "electric conductance", "kg-1 m-2 s3 A2"),
    ("Wb", "weber", "magnetic flux", "kg m2 s-2 A-1"), ("T", "tesla", "magnetic flux density", "kg s-2 A-1"),
    ("H", "henry", "inductance", "kg m2 s-2 A-2"), ("°C", "degree Celsius", "Celsius temperature", "K"),
    ("lm", "lumen", "luminous flux", "cd sr"), ("lx", "lux", "illuminance", "cd sr m-2"),
    ("Bq", "becquerel", "activity referred to a radionuclide", "s-1"), ("Gy", "gray", "absorbed dose", "m2 s-2"),
    ("Sv", "sievert", "dose equivalent", "m2 s-2"), ("kat", "katal", "catalytic activity", "mol s-1"),
]

SI_PREFIXES = [
    ("quetta", "Q", 30), ("ronna", "R", 27), ("yotta", "Y", 24), ("zetta", "Z", 21), ("exa", "E", 18),
    ("peta", "P", 15), ("tera", "T", 12), ("giga", "G", 9), ("mega", "M", 6), ("kilo", "k", 3),
    ("hecto", "h", 2), ("deca", "da", 1), ("deci", "d", -1), ("centi", "c", -2), ("milli", "m", -3),
    ("micro", "µ", -6), ("nano", "n", -9), ("pico", "p", -12), ("femto", "f", -15), ("atto", "a", -18),
    ("zepto", "z", -21), ("yocto", "y", -24), ("ronto", "r", -27), ("quecto", "q", -30),
]

# prefixed unit symbol, prefix name, unit symbol (value = 10**power_of_ten(prefix) * unit)
PREFIXED_UNITS = [
    ("km", "kilo", "m"), ("cm", "centi", "m"), ("mm", "milli", "m"), ("µm", "micro", "m"), ("nm", "nano", "m"),
    ("ms", "milli", "s"), ("µs", "micro", "s"), ("ns", "nano", "s"), ("mA", "milli", "A"), ("mmol", "milli", "mol"),
    ("kN", "kilo", "N"), ("kJ", "kilo", "J"), ("MJ", "mega", "J"), ("kW", "kilo", "W"), ("MW", "mega", "W"),
    ("GW", "giga", "W"), ("hPa", "hecto", "Pa"), ("kPa", "kilo", "Pa"), ("MPa", "mega", "Pa"), ("kHz", "kilo", "Hz"),
    ("MHz", "mega", "Hz"), ("GHz", "giga", "Hz"), ("mV", "milli", "V"), ("kV", "kilo", "V"), ("kΩ", "kilo", "Ω"),
    ("MΩ", "mega", "Ω"), ("µF", "micro", "F"), ("nF", "nano", "F"), ("pF", "pico", "F"), ("mSv", "milli", "Sv"),
]

# unit symbol, unit name, quantity, SI unit symbol, factor to SI (all exact by definition)
UNIT_CONVERSIONS = [
    ("in", "inch", "length", "m", 0.0254), ("ft", "foot", "length", "m", 0.3048),
    ("yd", "yard", "length", "m", 0.9144), ("mi", "mile", "length", "m", 1609.344),
    ("nmi", "nautical mile", "length", "m", 1852), ("au", "astronomical unit", "length", "m", 149597870700),
    ("ly", "light-year", "length", "m", 9460730472580800), ("Å", "ångström", "length", "m", 1e-10),
    ("lb", "pound", "mass", "kg", 0.45359237), ("oz", "ounce", "mass", "kg", 0.028349523125),
    ("t", "tonne", "mass", "kg", 1000), ("g", "gram", "mass", "kg", 0.001),
    ("min", "minute", "time", "s", 60), ("h", "hour", "time", "s", 3600), ("d", "day", "time", "s", 86400),
    ("cal", "calorie (thermochemical)", "energy", "J", 4.184), ("Wh", "watt-hour", "energy", "J", 3600),
    ("kWh", "kilowatt-hour", "energy", "J", 3600000), ("eV", "electronvolt", "energy", "J", 1.602176634e-19),
    ("atm", "standard atmosphere", "pressure", "Pa", 101325), ("bar", "bar", "pressure", "Pa", 100000),
]

# name, order from the Sun, type, mean radius km, approximate orbital period in Earth years, rings
PLANETS = [
    ("Mercury", 1, "terrestrial", 2439.7, 0.24, False), ("Venus", 2, "terrestrial", 6051.8, 0.62, False),
    ("Earth", 3, "terrestrial", 6371.0, 1.0, False), ("Mars", 4, "terrestrial", 3389.5, 1.88, False),
    ("Jupiter", 5, "gas giant", 69911.0, 11.86, True), ("Saturn", 6, "gas giant", 58232.0, 29.5, True),
    ("Uranus", 7, "ice giant", 25362.0, 84.0, True), ("Neptune", 8, "ice giant", 24622.0, 164.8, True),
]

# moon, planet, year of discovery (None for Earth's Moon)
MOONS = [
    ("Moon", "Earth", None), ("Phobos", "Mars", 1877), ("Deimos", "Mars", 1877),
    ("Io", "Jupiter", 1610), ("Europa", "Jupiter", 1610), ("Ganymede", "Jupiter", 1610),
    ("Callisto", "Jupiter", 1610), ("Mimas", "Saturn", 1789), ("Enceladus", "Saturn", 1789),
    ("Tethys", "Saturn", 1684), ("Dione", "Saturn", 1684), ("Rhea", "Saturn", 1672),
    ("Titan", "Saturn", 1655), ("Iapetus", "Saturn", 1671), ("Miranda", "Uranus", 1948),
    ("Ariel", "Uranus", 1851), ("Umbriel", "Uranus", 1851), ("Titania", "Uranus", 1787),
    ("Oberon", "Uranus", 1787), ("Triton", "Neptune", 1846), ("Nereid", "Neptune", 1949),
]

# mission, launch year, agency, mission type, target planets
MISSIONS = [
    ("Mariner 10", 1973, "NASA", "flyby", ["Venus", "Mercury"]),
    ("MESSENGER", 2004, "NASA", "orbiter", ["Mercury"]),
    ("BepiColombo", 2018, "ESA/JAXA", "orbiter", ["Mercury"]),
    ("Magellan", 1989, "NASA", "orbiter", ["Venus"]),
    ("Venus Express", 2005, "ESA", "orbiter", ["Venus"]),
    ("Akatsuki", 2010, "JAXA", "orbiter", ["Venus"]),
    ("Viking 1", 1975, "NASA", "orbiter and lander", ["Mars"]),
    ("Mars Express", 2003, "ESA", "orbiter", ["Mars"]),
    ("Mars Reconnaissance Orbiter", 2005, "NASA", "orbiter", ["Mars"]),
    ("Curiosity", 2011, "NASA", "rover", ["Mars"]),
    ("Mars Orbiter Mission", 2013, "ISRO", "orbiter", ["Mars"]),
    ("Perseverance", 2020, "NASA", "rover", ["Mars"]),
    ("Tianwen-1", 2020, "CNSA", "orbiter, lander and rover", ["Mars"]),
    ("Pioneer 10", 1972, "NASA", "flyby", ["Jupiter"]),
    ("Pioneer 11", 1973, "NASA", "flyby", ["Jupiter", "Saturn"]),
    ("Voyager 1", 1977, "NASA", "flyby", ["Jupiter", "Saturn"]),
    ("Voyager 2", 1977, "NASA", "flyby", ["Jupiter", "Saturn", "Uranus", "Neptune"]),
    ("Galileo", 1989, "NASA", "orbiter", ["Jupiter"]),
    ("Cassini-Huygens", 1997, "NASA/ESA/ASI", "orbiter and probe", ["Saturn"]),
    ("Juno", 2011, "NASA", "orbiter", ["Jupiter"]),
    ("Juice", 2023, "ESA", "orbiter", ["Jupiter"]),
    ("Europa Clipper", 2024, "NASA", "orbiter", ["Jupiter"]),
]

# USPS code, state, capital, Census Bureau region
US_STATES = [
    ("AL", "Alabama", "Montgomery", "South"), ("AK", "Alaska", "Juneau", "West"),
    ("AZ", "Arizona", "Phoenix", "West"), ("AR", "Arkansas", "Little Rock", "South"),
    ("CA", "California", "Sacramento", "West"), ("CO", "Colorado", "Denver", "West"),
    ("CT", "Connecticut", "Hartford", "Northeast"), ("DE", "Delaware", "Dover", "South"),
    ("FL", "Florida", "Tallahassee", "South"), ("GA", "Georgia", "Atlanta", "South"),
    ("HI", "Hawaii", "Honolulu", "West"), ("ID", "Idaho", "Boise", "West"),
    ("IL", "Illinois", "Springfield", "Midwest"), ("IN", "Indiana", "Indianapolis", "Midwest"),
    ("IA", "Iowa", "Des Moines", "Midwest"), ("KS", "Kansas", "Topeka", "Midwest"),
    ("KY", "Kentucky", "Frankfort", "South"), ("LA", "Louisiana", "Baton Rouge", "South"),
    ("ME", "Maine", "Augusta", "Northeast"), ("MD", "Maryland", "Annapolis", "South"),
    ("MA", "Massachusetts", "Boston", "Northeast"), ("MI", "Michigan", "Lansing", "Midwest"),
    ("MN", "Minnesota", "Saint Paul", "Midwest"), ("MS", "Mississippi", "Jackson", "South"),
    ("MO", "Missouri", "Jefferson City", "Midwest"), ("MT", "Montana", "Helena", "West"),
    ("NE", "Nebraska", "Lincoln", "Midwest"), ("NV", "Nevada", "Carson City", "West"),
    ("NH", "New Hampshire", "Concord", "Northeast"), ("NJ", "New Jersey", "Trenton", "Northeast"),
    ("NM", "New Mexico", "Santa Fe", "West"), ("NY", "New York", "Albany", "Northeast"),
    ("NC", "North Carolina", "Raleigh", "South"), ("ND", "North Dakota", "Bismarck", "Midwest"),
    ("OH", "Ohio", "Columbus", "Midwest"), ("OK", "Oklahoma", "Oklahoma City", "South"),
    ("OR", "Oregon", "Salem", "West"), ("PA", "Pennsylvania", "Harrisburg", "Northeast"),
    ("RI", "Rhode Island", "Providence", "Northeast"), ("SC", "South Carolina", "Columbia", "South"),
    ("SD", "South Dakota", "Pierre", "Midwest"), ("TN", "Tennessee", "Nashville", "South"),
    ("TX", "Texas", "Austin", "South"), ("UT", "Utah", "Salt Lake City", "West"),
    ("VT", "Vermont", "Montpelier", "Northeast"), ("VA", "Virginia", "Richmond", "South"),
    ("WA", "Washington", "Olympia", "West"), ("WV", "West Virginia", "Charleston", "South"),
    ("WI", "Wisconsin", "Madison", "Midwest"), ("WY", "Wyoming", "Cheyenne", "West"),
]

# author, birth year, death year, nationality
AUTHORS = [
    ("Jane Austen", 1775, 1817, "English"), ("Herman Melville", 1819, 1891, "American"),
    ("Mary Shelley", 1797, 1851, "English"), ("Charlotte Brontë", 1816, 1855, "English"),
    ("Emily Brontë", 1818, 1848, "English"), ("Charles Dickens", 1812, 1870, "English"),
    ("Mark Twain", 1835, 1910, "American"), ("Bram Stoker", 1847, 1912, "Irish"),
    ("Leo Tolstoy", 1828, 1910, "Russian"), ("Fyodor Dostoevsky", 1821, 1881, "Russian"),
    ("Gustave Flaubert", 1821, 1880, "French"), ("Victor Hugo", 1802, 1885, "French"),
    ("Miguel de Cervantes", 1547, 1616, "Spanish"), ("Robert Louis Stevenson", 1850, 1894, "Scottish"),
    ("H. G. Wells", 1866, 1946, "English"), ("Louisa May Alcott", 1832, 1888, "American"),
    ("Nathaniel Hawthorne", 1804, 1864, "American"), ("F. Scott Fitzgerald", 1896, 1940, "American"),
    ("James Joyce", 1882, 1941, "Irish"), ("Lewis Carroll", 1832, 1898, "English"),
]

# title, author, year first published in book form, original language (ISO 639-1)
BOOKS = [
    ("Sense and Sensibility", "Jane Austen", 1811, "en"), ("Pride and Prejudice", "Jane Austen", 1813, "en"),
    ("Emma", "Jane Austen", 1815, "en"), ("Moby-Dick", "Herman Melville", 1851, "en"),
    ("Frankenstein", "Mary Shelley", 1818, "en"), ("Jane Eyre", "Charlotte Brontë", 1847, "en"),
    ("Wuthering Heights", "Emily Brontë", 1847, "en"), ("A Tale of Two Cities", "Charles Dickens", 1859, "en"),
    ("Great Expectations", "Charles Dickens", 1861, "en"), ("The Adventures of Tom Sawyer", "Mark Twain", 1876, "en"),
    ("Dracula", "Bram Stoker", 1897, "en"), ("War and Peace", "Leo Tolstoy", 1869, "ru"),
    ("Crime and Punishment", "Fyodor Dostoevsky", 1867, "ru"), ("The Brothers Karamazov", "Fyodor Dostoevsky", 1880, "ru"),
    ("Madame Bovary", "Gustave Flaubert", 1857, "fr"), ("Les Misérables", "Victor Hugo", 1862, "fr"),
    ("Don Quixote", "Miguel de Cervantes", 1605, "es"), ("Treasure Island", "Robert Louis Stevenson", 1883, "en"),
    ("Strange Case of Dr Jekyll and Mr Hyde", "Robert Louis Stevenson", 1886, "en"),
    ("The Time Machine", "H. G. Wells", 1895, "en"), ("The War of the Worlds", "H. G. Wells", 1898, "en"),
    ("Little Women", "Louisa May Alcott", 1868, "en"), ("The Scarlet Letter", "Nathaniel Hawthorne", 1850, "en"),
    ("The Great Gatsby", "F. Scott Fitzgerald", 1925, "en"), ("Ulysses", "James Joyce", 1922, "en"),
    ("Alice's Adventures in Wonderland", "Lewis Carroll", 1865, "en"),
]

# common name, scientific name, plant family
CROPS = [
    ("wheat", "Triticum aestivum", "Poaceae"), ("maize", "Zea mays", "Poaceae"),
    ("rice", "Oryza sativa", "Poaceae"), ("barley", "Hordeum vulgare", "Poaceae"),
    ("oats", "Avena sativa", "Poaceae"), ("sorghum", "Sorghum bicolor", "Poaceae"),
    ("soybean", "Glycine max", "Fabaceae"), ("pea", "Pisum sativum", "Fabaceae"),
    ("chickpea", "Cicer arietinum", "Fabaceae"), ("alfalfa", "Medicago sativa", "Fabaceae"),
    ("potato", "Solanum tuberosum", "Solanaceae"), ("tomato", "Solanum lycopersicum", "Solanaceae"),
    ("sunflower", "Helianthus annuus", "Asteraceae"), ("lettuce", "Lactuca sativa", "Asteraceae"),
    ("rapeseed", "Brassica napus", "Brassicaceae"), ("cabbage", "Brassica oleracea", "Brassicaceae"),
    ("sugar beet", "Beta vulgaris", "Amaranthaceae"), ("carrot", "Daucus carota", "Apiaceae"),
    ("onion", "Allium cepa", "Amaryllidaceae"), ("cotton", "Gossypium hirsutum", "Malvaceae"),
]

# generic name, drug class, dosage form, a commonly marketed strength
MEDICATIONS = [
    ("ibuprofen", "nonsteroidal anti-inflammatory drug", "tablet", "200 mg"),
    ("paracetamol", "analgesic and antipyretic", "tablet", "500 mg"),
    ("amoxicillin", "penicillin antibiotic", "capsule", "500 mg"),
    ("metformin", "biguanide antidiabetic", "tablet", "500 mg"),
    ("atorvastatin", "statin", "tablet", "20 mg"),
    ("lisinopril", "ACE inhibitor", "tablet", "10 mg"),
    ("amlodipine", "calcium channel blocker", "tablet", "5 mg"),
    ("omeprazole", "proton pump inhibitor", "capsule", "20 mg"),
    ("sertraline", "selective serotonin reuptake inhibitor", "tablet", "50 mg"),
    ("levothyroxine", "thyroid hormone", "tablet", "50 mcg"),
    ("salbutamol", "short-acting beta agonist bronchodilator", "inhaler", "100 mcg per dose"),
    ("cetirizine", "antihistamine", "tablet", "10 mg"),
    ("warfarin", "vitamin K antagonist anticoagulant", "tablet", "5 mg"),
    ("prednisone", "corticosteroid", "tablet", "5 mg"),
    ("simvastatin", "statin", "tablet", "20 mg"),
]

# ---------------------------------------------------------------------------- sample vocabulary
FIRST = ["Ava", "Liam", "Noah", "Emma", "Olivia", "Mateo", "Sofia", "Yuki", "Hiro", "Aisha",
         "Omar", "Fatima", "Chen", "Wei", "Priya", "Arjun", "Lucas", "Amara", "Kwame", "Zara",
         "Elena", "Ivan", "Nina", "Jonas", "Freya", "Lars", "Ingrid", "Diego", "Camila", "Rosa",
         "Marco", "Giulia", "Pierre", "Chloe", "Hannah", "Ben", "Sam", "Maya", "Leo", "Ines",
         "Tariq", "Nadia", "Kofi", "Ada", "Ravi", "Meera", "Tomas", "Anna", "Kai", "Lena",
         "Oscar", "Ruth", "Felix", "Iris", "Hugo", "Alma", "Ezra", "Mina", "Jae", "Sara"]
LAST = ["Smith", "Garcia", "Nguyen", "Kim", "Patel", "Okafor", "Mensah", "Silva", "Rossi",
        "Muller", "Dubois", "Novak", "Kowalski", "Hansen", "Larsen", "Tanaka", "Sato", "Chen",
        "Wang", "Singh", "Khan", "Haddad", "Cohen", "Murphy", "Walsh", "Brown", "Jones", "Lopez",
        "Martin", "Fischer", "Weber", "Costa", "Ferreira", "Andersson", "Nilsson", "Virtanen",
        "Horvat", "Papadopoulos", "Yilmaz", "Ivanova", "Moreau", "Bianchi", "Santos", "Reyes",
        "Cruz", "Ali", "Hassan", "Abebe", "Mwangi", "Nakamura", "Park", "Lee", "Taylor", "Clark",
        "Lewis", "Young", "Wright", "King", "Scott", "Green"]
STREETS = ["Oak Street", "Maple Avenue", "Station Road", "High Street", "Park Lane", "River Road",
           "Mill Lane", "Church Street", "Elm Drive", "Harbour Way", "Cedar Court", "Hill Road",
           "Bridge Street", "Market Square", "Orchard Close", "Lake View"]
TOWNS = ["Riverton", "Ashford", "Brookfield", "Fairview", "Kingsbridge", "Millbrook",
         "Northgate", "Oakridge", "Westfield", "Lakeside", "Stonehaven", "Greenvale"]


# ---------------------------------------------------------------------------- small helpers
def topic_rng(seed, topic):
    """A random.Random for one topic, derived from the global seed and the topic name."""
    digest = hashlib.sha256(f"{seed}:{topic}".encode()).hexdigest()
    return random.Random(int(digest[:16], 16))


def person(rng):
    """A synthetic (first, last) name."""
    return rng.choice(FIRST), rng.choice(LAST)


def email(first, last, n, domain="example.com"):
    """A synthetic address on a reserved example domain."""
    return f"{first}.{last}{n}@{domain}".lower()


def day(rng, start="2024-01-01", span=365):
    """An ISO date in [start, start + span)."""
    return (date.fromisoformat(start) + timedelta(days=rng.randrange(span))).isoformat()


def shift(iso, days):
    """An ISO date moved by a number of days."""
    return (date.fromisoformat(iso) + timedelta(days=days)).isoformat()


def money(rng, lo, hi):
    """A price rounded to cents."""
    return round(rng.uniform(lo, hi), 2)


def clock(rng, first_hour=8, last_hour=17, step=15):
    """A HH:MM time between two hours on a grid of `step` minutes."""
    minute = rng.randrange(first_hour * 60, last_hour * 60, step)
    return f"{minute // 60:02d}:{minute % 60:02d}"


def address(rng):
    """A synthetic street address."""
    return f"{rng.randint(1, 240)} {rng.choice(STREETS)}"


def table(name, rows, pk=None, fks=()):
    """A named table: rows (list of dicts), primary key column, [(column, table, column)]."""
    return {"name": name, "rows": rows, "pk": pk, "fks": list(fks)}


def doc(path, fmt, title, text, tables=(), source="sample", obj=None, ragged=None):
    """One corpus file to write: format, heading text, tables or a ready JSON object."""
    return {"path": path, "fmt": fmt, "title": title, "text": text, "tables": list(tables),
            "source": source, "obj": obj, "ragged": ragged}


# ---------------------------------------------------------------------------- format writers
def cell(value):
    """Text form of a value for CSV, Markdown and HTML cells."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def csv_text(d, sep=","):
    """CSV/TSV: '#' comment lines, a header row, then rows (one may be ragged on purpose)."""
    rows = d["tables"][0]["rows"]
    cols = list(rows[0])
    buf = io.StringIO()
    buf.write(f"# {d['title']}\n# {d['text']}\n")
    writer = csv.writer(buf, delimiter=sep, lineterminator="\n")
    writer.writerow(cols)
    for i, row in enumerate(rows):
        values = [cell(row.get(c)) for c in cols]
        if i == d["ragged"]:
            values = values[:-1]  # deliberate wart: this row lacks its last field
        writer.writerow(values)
    return buf.getvalue()


def json_text(d):
    """JSON: a ready object, a bare array (fmt jsonarr) or {description, <table>: [...]}."""
    if d["obj"] is not None:
        obj = d["obj"]
    elif d["fmt"] == "jsonarr":
        obj = d["tables"][0]["rows"]
    else:
        obj = {"description": f"{d['title']}. {d['text']}"}
        for t in d["tables"]:
            obj[t["name"]] = t["rows"]
    return json.dumps(obj, indent=2, ensure_ascii=False) + "\n"


def md_cell(value):
    """Markdown cell text with pipes escaped."""
    return cell(value).replace("|", "\\|")


def md_text(d):
    """Markdown: heading, paragraph, then one '## name' section per table."""
    out = [f"# {d['title']}", "", d["text"], ""]
    for t in d["tables"]:
        cols = list(t["rows"][0])
        out += [f"## {t['name']}", "", "| " + " | ".join(cols) + " |",
                "| " + " | ".join("---" for _ in cols) + " |"]
        out += ["| " + " | ".join(md_cell(r.get(c)) for c in cols) + " |" for r in t["rows"]]
        out.append("")
    return "\n".join(out)


def html_text(d):
    """HTML page: <title>, <h1>, <p>, then an <h2> and a <table id=name> per table."""
    esc = html.escape
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
           f"<title>{esc(d['title'])}</title>", "</head>", "<body>", f"<h1>{esc(d['title'])}</h1>",
           f"<p>{esc(d['text'])}</p>"]
    for t in d["tables"]:
        cols = list(t["rows"][0])
        out += [f"<h2>{esc(t['name'])}</h2>", f'<table id="{esc(t["name"])}">', "<thead>",
                "<tr>" + "".join(f"<th>{esc(c)}</th>" for c in cols) + "</tr>", "</thead>", "<tbody>"]
        out += ["<tr>" + "".join(f"<td>{esc(cell(r.get(c)))}</td>" for c in cols) + "</tr>"
                for r in t["rows"]]
        out += ["</tbody>", "</table>"]
    out += ["</body>", "</html>", ""]
    return "\n".join(out)


def sql_type(values):
    """SQLite column type from the first non-null value."""
    for v in values:
        if v is None:
            continue
        if isinstance(v, bool) or isinstance(v, int):
            return "INTEGER"
        return "REAL" if isinstance(v, float) else "TEXT"
    return "TEXT"


def sql_literal(value):
    """A SQL literal for one value."""
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, (int, float)):
        return str(value)
    return "'" + str(value).replace("'", "''") + "'"


def sql_text(d):
    """SQL dump: comment header, then CREATE TABLE (keys declared) and INSERTs per table."""
    out = [f"-- {d['title']}", f"-- {d['text']}", "BEGIN TRANSACTION;"]
    for t in d["tables"]:
        cols = list(t["rows"][0])
        defs = []
        for c in cols:
            line = f"  {c} {sql_type([r.get(c) for r in t['rows']])}"
            defs.append(line + (" PRIMARY KEY" if c == t["pk"] else ""))
        defs += [f"  FOREIGN KEY ({c}) REFERENCES {rt}({rc})" for c, rt, rc in t["fks"]]
        out += ["", f"CREATE TABLE {t['name']} (", ",\n".join(defs), ");"]
        for r in t["rows"]:
            vals = ", ".join(sql_literal(r.get(c)) for c in cols)
            out.append(f"INSERT INTO {t['name']} ({', '.join(cols)}) VALUES ({vals});")
    out += ["COMMIT;", ""]
    return "\n".join(out)


def yaml_scalar(value):
    """A YAML scalar: strings double-quoted (JSON escapes are valid YAML), null, true/false."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    return json.dumps(value, ensure_ascii=False)


def yaml_text(d):
    """YAML: '#' comment lines, then a block list of flat mappings."""
    out = [f"# {d['title']}", f"# {d['text']}"]
    for r in d["tables"][0]["rows"]:
        for i, (k, v) in enumerate(r.items()):
            out.append(("- " if i == 0 else "  ") + f"{k}: {yaml_scalar(v)}")
    return "\n".join(out) + "\n"


WRITERS = {"csv": csv_text, "tsv": lambda d: csv_text(d, sep="\t"), "json": json_text,
           "jsonarr": json_text, "nested": json_text, "md": md_text, "html": html_text,
           "sql": sql_text, "yaml": yaml_text}


def unique_code(rng, used, alphabet="ABCDEFGHJKLMNPQRSTUVWXYZ23456789", length=6):
    """A random code not yet in `used` (added to it)."""
    while True:
        code = "".join(rng.choice(alphabet) for _ in range(length))
        if code not in used:
            used.add(code)
            return code


# ---------------------------------------------------------------------------- topics: travel, geography, science
def topic_flights(rng):
    """Airports and airlines (facts) plus sample routes, passengers and bookings."""
    airports = [dict(iata_code=a, icao_code=b, name=c, city=d, country_code=e) for a, b, c, d, e in AIRPORTS]
    airlines = [dict(iata=a, icao=b, name=c, country_code=d, hub_airport=e) for a, b, c, d, e in AIRLINES]
    codes = [a["iata_code"] for a in airports]
    aircraft = ["A320neo", "A321neo", "A330-300", "A350-900", "B737-800", "B737 MAX 8",
                "B777-300ER", "B787-9", "E190"]
    day_sets = ["daily", "Mon,Wed,Fri", "Tue,Thu,Sat", "Mon-Fri", "Sat,Sun"]
    routes, used = [], set()
    for al in airlines:
        hub = al["hub_airport"]
        for dest in rng.sample([c for c in codes if c not in (hub, "SVO", "KBP")], rng.randint(2, 4)):
            for src, dst in ((hub, dest), (dest, hub)):
                num = rng.randint(10, 1999)
                while (al["iata"], num) in used:
                    num = rng.randint(10, 1999)
                used.add((al["iata"], num))
                routes.append(dict(route_id=f"RT{len(routes) + 1:04d}", airline=al["iata"],
                                   flight_number=f"{al['iata']}{num}", source_airport=src,
                                   dest_airport=dst, departure_time=clock(rng, 0, 24, 5),
                                   aircraft=rng.choice(aircraft), days_of_week=rng.choice(day_sets)))
    passengers = []
    for i in range(1, 61):
        f, l = person(rng)
        passengers.append(dict(passenger_id=f"PAX{i:04d}", first_name=f, last_name=l,
                               email=email(f, l, i), nationality=rng.choice(COUNTRIES)[0]))
    fares = {"economy": (80, 650), "premium": (400, 1400), "business": (1200, 5200)}
    bookings, refs = [], set()
    for _ in range(180):
        cabin = rng.choices(list(fares), weights=[7, 2, 1])[0]
        bookings.append(dict(booking_ref=unique_code(rng, refs),
                             passenger_id=rng.choice(passengers)["passenger_id"],
                             route_id=rng.choice(routes)["route_id"],
                             flight_date=day(rng, "2024-03-01", 240), cabin=cabin,
                             fare_amount=money(rng, *fares[cabin]), currency="USD",
                             status=rng.choices(["confirmed", "checked_in", "flown", "cancelled"],
                                                weights=[5, 1, 3, 1])[0]))
    bookings.sort(key=lambda b: (b["flight_date"], b["booking_ref"]))
    return [
        doc("flights/airports.csv", "csv", "Airports directory: IATA and ICAO airport codes",
            "Commercial airports with IATA airport code, ICAO code, airport name, city served and "
            "ISO 3166-1 alpha-2 country code, used by the flight booking and airport directory services.",
            [table("airports", airports, "iata_code")],
            source="facts: IATA/ICAO airport location codes, airport names, cities served"),
        doc("flights/airlines.json", "json", "Airline directory",
            "Airlines with IATA and ICAO airline designators, home country code and main hub airport "
            "(IATA code), for flight search, flight booking and airline route lookups.",
            [table("airlines", airlines, "iata")],
            source="facts: IATA/ICAO airline designators, home country, a main hub airport"),
        doc("flights/routes.md", "md", "Scheduled airline routes",
            "Sample timetable of scheduled airline routes. Each route has an airline (IATA code), a "
            "flight number, a source airport and a destination airport (IATA airport codes), a "
            "departure time, the aircraft type and the days of week it flies. Passengers book flights "
            "on these routes.", [table("routes", routes, "route_id")]),
        doc("flights/bookings.sql", "sql", "Flight booking system dump: passengers and bookings",
            "Passengers book seats on scheduled airline routes for a flight date in economy, premium or "
            "business cabin; each flight booking has a booking reference, fare amount, currency and status.",
            [table("passengers", passengers, "passenger_id"),
             table("bookings", bookings, "booking_ref", [("passenger_id", "passengers", "passenger_id")])]),
    ]


def topic_geography(rng):
    """Countries, currencies, languages, time zones and cities (all reference facts)."""
    countries = [dict(alpha2=a, alpha3=b, name=c, capital=d, continent=e, currency_code=f,
                      calling_code=g) for a, b, c, d, e, f, g in COUNTRIES]
    currencies = [dict(code=c, name=n, minor_units=m) for c, n, m in CURRENCIES]
    languages = [dict(iso639_1=c, name=n) for c, n in LANGUAGES]
    spoken = [dict(country_code=c, language_code=l) for c, ls in COUNTRY_LANGUAGES.items() for l in ls]
    zones = [dict(tz_id=z, utc_offset=o, country_code=c) for z, o, c in TIME_ZONES]
    cities = [dict(city=n, country_code=c, tz_id=z, is_capital=cap) for n, c, z, cap in CITIES]
    return [
        doc("geography/countries.csv", "csv",
            "Countries of the world: ISO 3166-1 country codes, capital cities, currencies and calling codes",
            "Reference table of countries with ISO 3166-1 alpha-2 and alpha-3 country codes, country name, "
            "capital city, continent, ISO 4217 currency code and international telephone calling code "
            "(country dialling code).", [table("countries", countries, "alpha2")],
            source="facts: ISO 3166-1 codes, capitals, continents, ISO 4217 currency, ITU calling codes"),
        doc("geography/currencies.json", "json", "World currencies (ISO 4217 currency codes)",
            "Currency reference: ISO 4217 three-letter alphabetic currency codes with the currency name and "
            "its minor units (number of decimal places). countries.csv links each country to its currency code.",
            [table("currencies", currencies, "code")], source="facts: ISO 4217 codes, names, minor units"),
        doc("geography/languages.tsv", "tsv", "World languages (ISO 639-1 language codes)",
            "Two-letter ISO 639-1 language codes with the English name of each language.",
            [table("languages", languages, "iso639_1")], source="facts: ISO 639-1 codes and English names"),
        doc("geography/country_languages.md", "md", "Languages spoken by country",
            "Main languages widely spoken in each country, by ISO 3166-1 alpha-2 country code and ISO 639-1 "
            "language code. The list names widely spoken languages; it does not state legal official status.",
            [table("country_languages", spoken)],
            source="facts: widely spoken languages per country (conservative selection)"),
        doc("geography/time_zones.yaml", "yaml", "IANA time zones with standard UTC offsets",
            "Time zone identifiers from the IANA time zone database (tz database) with the standard, "
            "non-daylight-saving UTC offset and the ISO country code of each zone.",
            [table("time_zones", zones, "tz_id")], source="facts: IANA tz database zone ids, standard offsets"),
        doc("geography/cities.html", "html", "Major world cities, capital cities and their time zones",
            "Major cities with ISO country code, IANA time zone and whether the city is the national capital; "
            "join with the countries table to answer capital city quiz questions and time zone lookups.",
            [table("cities", cities)], source="facts: city, country, IANA zone, capital flag"),
    ]


def topic_elements(rng):
    """Periodic table, element categories, compounds and their composition (all facts)."""
    weight = {sym: w for _, sym, _, w, _, _, _ in ELEMENTS}
    elements = [dict(atomic_number=n, symbol=s, name=nm, atomic_weight=w, period=p, group=g,
                     category=c) for n, s, nm, w, p, g, c in ELEMENTS]
    categories = [dict(category=c, description=t) for c, t in ELEMENT_CATEGORIES]
    compounds, parts = [], []
    for i, (name, formula, state, comp) in enumerate(COMPOUNDS, 1):
        cid = f"CMP{i:03d}"
        mass = round(sum(weight[s] * k for s, k in comp.items()), 3)
        compounds.append(dict(compound_id=cid, name=name, formula=formula,
                              state_at_room_temperature=state, molar_mass=mass))
        parts += [dict(compound_id=cid, symbol=s, atom_count=k) for s, k in comp.items()]
    return [
        doc("elements/elements.csv", "csv", "Periodic table of the chemical elements",
            "Chemical elements with atomic number, element symbol, element name, standard atomic weight "
            "(IUPAC abridged value), period, group and element category. Covers elements 1-36 and selected "
            "heavier elements.", [table("elements", elements, "symbol")],
            source="facts: IUPAC abridged standard atomic weights, periodic table positions"),
        doc("elements/element_categories.md", "md", "Element categories of the periodic table",
            "The element categories used in elements.csv (alkali metal, alkaline earth metal, transition "
            "metal, post-transition metal, metalloid, nonmetal, halogen, noble gas, actinide) with a short "
            "description of each.", [table("element_categories", categories, "category")],
            source="facts: common periodic-table classification"),
        doc("elements/compounds.json", "json", "Common chemical compounds",
            "Chemical compounds with common name, molecular formula, state at room temperature and molar mass "
            "in g/mol, computed from the standard atomic weights of the elements in elements.csv.",
            [table("compounds", compounds, "compound_id")],
            source="facts: formulas and states; molar mass computed by the script"),
        doc("elements/compound_elements.csv", "csv", "Compound composition by element",
            "For each chemical compound, how many atoms of each element (by element symbol) its molecular "
            "formula contains.", [table("compound_elements", parts)], source="facts: derived from formulas"),
    ]


def topic_units(rng):
    """SI units, prefixes, prefixed units and exact conversion factors (all facts)."""
    units = [dict(unit_symbol=s, name=n, quantity=q, unit_kind="base", in_base_units=s) for s, n, q in SI_BASE_UNITS]
    units += [dict(unit_symbol=s, name=n, quantity=q, unit_kind="derived", in_base_units=b)
              for s, n, q, b in SI_DERIVED_UNITS]
    prefixes = [dict(prefix=p, symbol=s, power_of_ten=e) for p, s, e in SI_PREFIXES]
    prefixed = [dict(symbol=s, prefix=p, unit_symbol=u) for s, p, u in PREFIXED_UNITS]
    conv = [dict(unit=u, name=n, quantity=q, si_unit=si, factor_to_si=f, exact=True)
            for u, n, q, si, f in UNIT_CONVERSIONS]
    return [
        doc("units/si_units.csv", "csv", "SI base units and derived units",
            "Units of the International System of Units (SI): the seven base units (metre, kilogram, second, ampere, "
            "kelvin, mole, candela) and the derived units with special names (newton, pascal, joule, watt, volt, ...), "
            "with symbol, quantity and expression in SI base units.", [table("si_units", units, "unit_symbol")],
            source="facts: SI Brochure (BIPM), base units and derived units with special names"),
        doc("units/si_prefixes.yaml", "yaml", "SI prefixes",
            "Decimal SI prefixes from quecto to quetta with prefix symbol and power of ten, for unit "
            "conversion between multiples and submultiples.", [table("si_prefixes", prefixes, "prefix")],
            source="facts: SI prefixes including the 2022 additions"),
        doc("units/prefixed_units.md", "md", "Common prefixed SI units",
            "Common multiples and submultiples of SI units (kilometre, millisecond, kilopascal, megawatt, gigahertz, "
            "...): each is an SI prefix applied to an SI unit, so its value is 10 to the prefix's power times the unit.",
            [table("prefixed_units", prefixed, "symbol")], source="facts: formed from the SI prefix and unit"),
        doc("units/conversions.json", "json", "Unit conversion factors to SI",
            "Exact conversion factors from common non-SI units (inch, foot, mile, pound, ounce, calorie, "
            "kilowatt-hour, atmosphere, ...) to the SI unit named by si_unit: value_in_si = value * "
            "factor_to_si.", [table("conversions", conv, "unit")],
            source="facts: exact definitions (international yard and pound, thermochemical calorie, ...)"),
    ]


def topic_astronomy(rng):
    """Planets, moons and missions (facts) plus sample amateur telescope observations."""
    planets = [dict(name=n, order_from_sun=o, planet_type=t, mean_radius_km=r,
                    orbital_period_years=p, has_rings=g) for n, o, t, r, p, g in PLANETS]
    moons = [dict(moon=m, planet=p, discovered=y) for m, p, y in MOONS]
    missions, targets = [], []
    for i, (name, year, agency, kind, planets_hit) in enumerate(MISSIONS, 1):
        mid = f"MSN{i:02d}"
        missions.append(dict(mission_id=mid, name=name, launch_year=year, agency=agency, mission_type=kind))
        targets += [dict(mission_id=mid, planet=p) for p in planets_hit]
    notes = {"Mercury": ["low in evening twilight", "tiny gibbous disc"],
             "Venus": ["crescent phase", "gibbous phase", "very bright, no surface detail"],
             "Mars": ["polar cap visible", "dark surface markings", "small disc, little detail"],
             "Jupiter": ["two equatorial belts visible", "four Galilean moons in a line",
                         "Great Red Spot near the central meridian"],
             "Saturn": ["rings well open", "Titan visible to the east", "Cassini division glimpsed"],
             "Uranus": ["small blue-green disc"], "Neptune": ["faint bluish point"]}
    observers = [" ".join(person(rng)) for _ in range(12)]
    obs = []
    for i in range(1, 121):
        planet = rng.choices(list(notes), weights=[1, 3, 3, 4, 4, 1, 1])[0]
        obs.append(dict(observation_id=f"OBS{i:04d}", observer=rng.choice(observers),
                        observed_on=day(rng, "2023-01-01", 540), planet=planet,
                        telescope_aperture_mm=rng.choice([70, 90, 102, 127, 150, 200, 254]),
                        seeing=rng.randint(1, 5), notes=rng.choice(notes[planet])))
    obs.sort(key=lambda o: (o["observed_on"], o["observation_id"]))
    return [
        doc("astronomy/planets.yaml", "yaml", "Planets of the Solar System",
            "The eight planets with order from the Sun, planet type (terrestrial, gas giant, ice giant), "
            "mean radius in kilometres, approximate orbital period in Earth years and whether the planet has rings.",
            [table("planets", planets, "name")], source="facts: mean radii per NASA planetary fact sheets; orbital periods rounded, approximate"),
        doc("astronomy/moons.csv", "csv", "Named moons of the planets",
            "Major named moons of the Solar System planets with the planet they orbit and the year of discovery.",
            [table("moons", moons, "moon")], source="facts: moon discovery years"),
        doc("astronomy/missions.md", "md", "Planetary space missions",
            "Space missions to the planets (flyby, orbiter, lander, rover) with launch year and agency, and a "
            "mission_targets table linking each mission to the planets it visited.",
            [table("missions", missions, "mission_id"), table("mission_targets", targets)],
            source="facts: mission names, launch years, agencies, target planets"),
        doc("astronomy/observations.json", "json", "Amateur telescope observation log",
            "Sample log of telescope observations of planets by amateur astronomers: observer, date, planet, "
            "telescope aperture in millimetres, seeing on a 1-5 scale and notes.",
            [table("observations", obs, "observation_id")]),
    ]


def topic_us_states(rng):
    """US states (facts) plus sample DMV offices, services and appointments."""
    states = [dict(code=c, name=n, capital=cap, census_region=r) for c, n, cap, r in US_STATES]
    offices = []
    for st in rng.sample(US_STATES, 15):
        for k in range(rng.randint(2, 3)):
            city = st[2] if k == 0 else rng.choice(TOWNS)
            offices.append(dict(office_id=f"DMV-{st[0]}-{k + 1:02d}", name=f"{city} DMV Office",
                                state_code=st[0], city=city, street_address=address(rng),
                                opens="08:00", closes=rng.choice(["16:30", "17:00", "18:00"])))
    offices.sort(key=lambda o: o["office_id"])
    services = [
        dict(service_id="SV01", name="Driver licence renewal", duration_minutes=20, fee_usd=35.0, requires_service_id=None),
        dict(service_id="SV02", name="Knowledge test", duration_minutes=40, fee_usd=10.0, requires_service_id=None),
        dict(service_id="SV03", name="Road test", duration_minutes=30, fee_usd=25.0, requires_service_id="SV02"),
        dict(service_id="SV04", name="Vehicle registration", duration_minutes=20, fee_usd=60.0, requires_service_id=None),
        dict(service_id="SV05", name="REAL ID application", duration_minutes=30, fee_usd=30.0, requires_service_id=None),
        dict(service_id="SV06", name="Title transfer", duration_minutes=25, fee_usd=20.0, requires_service_id=None),
        dict(service_id="SV07", name="State ID card", duration_minutes=20, fee_usd=15.0, requires_service_id=None),
    ]
    taken, codes, appts = set(), set(), []
    while len(appts) < 150:
        office = rng.choice(offices)
        when = (day(rng, "2024-07-01", 60), clock(rng, 8, 16, 20))
        if (office["office_id"],) + when in taken:
            continue
        taken.add((office["office_id"],) + when)
        appts.append(dict(appointment_id=f"AP{len(appts) + 1:05d}", office_id=office["office_id"],
                          service_id=rng.choice(services)["service_id"], resident_name=" ".join(person(rng)),
                          date=when[0], time=when[1], confirmation_code=unique_code(rng, codes, length=8),
                          status=rng.choices(["booked", "completed", "cancelled", "no_show"], weights=[5, 3, 1, 1])[0]))
    return [
        doc("us_states/states.csv", "csv", "US states: postal codes, capitals and Census regions",
            "The fifty US states with two-letter USPS postal code, state name, state capital city and "
            "Census Bureau region (Northeast, Midwest, South, West). Each state's motor vehicle (DMV) offices are "
            "listed in dmv_offices.html by state code.", [table("states", states, "code")],
            source="facts: USPS state codes, state capitals, US Census Bureau regions"),
        doc("us_states/dmv_offices.html", "html", "State motor vehicle (DMV) offices",
            "Sample directory of state motor vehicle offices (DMV offices) by US state code with city, street "
            "address and opening hours. Residents book DMV appointments at these offices.",
            [table("dmv_offices", offices, "office_id")]),
        doc("us_states/dmv_services.md", "md", "DMV services and fees",
            "Sample list of services offered at state motor vehicle (DMV) offices (driver licence renewal, knowledge "
            "test, road test, vehicle registration, REAL ID) with appointment duration and fee; a road test requires a "
            "passed knowledge test.",
            [table("dmv_services", services, "service_id")]),
        doc("us_states/dmv_appointments.yaml", "yaml", "DMV appointment bookings",
            "Sample DMV appointments: a resident books a service at a state motor vehicle office on a date and "
            "time slot and receives a confirmation code.", [table("dmv_appointments", appts, "appointment_id")]),
    ]


# ---------------------------------------------------------------------------- topics: commerce, hospitality, food
SHOP_CATEGORIES = [
    ("cat01", "Electronics", None, ["USB-C Charger 65W", "Wireless Mouse", "Mechanical Keyboard",
                                    "27-inch Monitor", "Portable SSD 1TB"]),
    ("cat02", "Headphones", "cat01", ["Noise-Cancelling Headphones", "Wireless Earbuds",
                                      "Studio Monitor Headphones"]),
    ("cat03", "Home & Kitchen", None, ["Electric Kettle", "French Press", "Chef's Knife",
                                       "Bamboo Cutting Board"]),
    ("cat04", "Cookware", "cat03", ["Cast Iron Skillet", "Nonstick Frying Pan", "Stainless Saucepan Set"]),
    ("cat05", "Books", None, ["Field Guide to Birds", "Beginner's Sourdough Cookbook",
                              "Python Programming Primer"]),
    ("cat06", "Sports & Outdoors", None, ["Yoga Mat", "Adjustable Dumbbells", "Running Belt"]),
    ("cat07", "Camping", "cat06", ["Two-Person Tent", "Down Sleeping Bag", "Camping Stove"]),
    ("cat08", "Clothing", None, ["Merino Wool Socks", "Rain Jacket", "Cotton T-Shirt"]),
    ("cat09", "Toys & Games", None, ["1000-Piece Jigsaw Puzzle", "Strategy Board Game",
                                     "Wooden Building Blocks"]),
]


def topic_shop(rng):
    """Nested online-store export (users/payment methods, products, orders/items) plus categories and reviews."""
    categories = [dict(category_id=c, name=n, parent_category_id=p) for c, n, p, _ in SHOP_CATEGORIES]
    products, n = {}, 0
    for cid, _, _, names in SHOP_CATEGORIES:
        for name in names:
            n += 1
            products[f"p{n:03d}"] = {"name": name, "category_id": cid, "price": money(rng, 8, 320),
                                     "currency": "USD", "stock": rng.randint(0, 250)}
    users = {}
    for i in range(1, 41):
        f, l = person(rng)
        methods = {}
        for j in range(rng.choice([0, 1, 1, 2, 2, 3])):
            kind = rng.choice(["card", "card", "paypal", "gift_card"])
            pm = {"type": kind}
            if kind == "card":
                pm.update(brand=rng.choice(["visa", "mastercard", "amex"]), last4=f"{rng.randint(0, 9999):04d}",
                          expires=f"{rng.randint(1, 12):02d}/{rng.randint(2025, 2030)}")
            elif kind == "paypal":
                pm["email"] = email(f, l, i, "example.org")
            else:
                pm["balance"] = money(rng, 5, 150)
            methods[f"pm_{i:03d}_{j + 1}"] = pm
        users[f"u{i:03d}"] = {"name": f"{f} {l}", "email": email(f, l, i), "joined": day(rng, "2022-01-01", 730),
                              "address": {"street": address(rng), "city": rng.choice(TOWNS), "country_code": "US"},
                              "payment_methods": methods}
    payers = [u for u in users if users[u]["payment_methods"]]
    orders = {}
    for i in range(1, 91):
        uid = rng.choice(payers)
        items = [{"product_id": p, "quantity": rng.randint(1, 3), "unit_price": products[p]["price"]}
                 for p in rng.sample(sorted(products), rng.randint(1, 4))]
        orders[f"o{i:04d}"] = {"user_id": uid, "payment_method_id": rng.choice(sorted(users[uid]["payment_methods"])),
                               "created": day(rng, "2024-01-01", 300),
                               "status": rng.choices(["pending", "paid", "shipped", "delivered", "cancelled"],
                                                     weights=[1, 2, 2, 5, 1])[0], "items": items}
    bought = sorted({(o["user_id"], it["product_id"]) for o in orders.values() for it in o["items"]})
    titles = {1: "Disappointed", 2: "Not great", 3: "Does the job", 4: "Very good", 5: "Excellent, would buy again"}
    reviews = []
    for k, (uid, pid) in enumerate(rng.sample(bought, 70), 1):
        rating = rng.choices([1, 2, 3, 4, 5], weights=[1, 1, 2, 4, 5])[0]
        reviews.append(dict(review_id=f"rv{k:04d}", product_id=pid, user_id=uid, rating=rating,
                            title=titles[rating], created=day(rng, "2024-02-01", 300)))
    export = {"description": "Online store export: users with addresses and saved payment methods, the product "
                             "catalog with category, price and stock, and orders whose items list product ids, "
                             "quantities and unit prices. Keys of each object are the record ids.",
              "users": users, "products": products, "orders": orders}
    return [
        doc("shop/store_export.json", "nested", "Online store export", "", source="sample", obj=export),
        doc("shop/categories.md", "md", "Online store product categories",
            "Product categories of the online store catalog; a category may have a parent category. Products "
            "in store_export.json carry a category_id.", [table("categories", categories, "category_id")]),
        doc("shop/reviews.csv", "csv", "Online store product reviews",
            "Product reviews with a 1-5 star rating, written by store users who ordered the product.",
            [table("reviews", reviews, "review_id")]),
    ]


HOTELS = [("h01", "Harbourlight Lisbon", "Lisbon", "PT", 4), ("h02", "Casa Mirador Barcelona", "Barcelona", "ES", 4),
          ("h03", "Ringstrasse Residence Vienna", "Vienna", "AT", 5), ("h04", "Nyhavn Quay Hotel", "Copenhagen", "DK", 3),
          ("h05", "Southbank Lodge Melbourne", "Melbourne", "AU", 3), ("h06", "Shinjuku Garden Inn", "Tokyo", "JP", 4)]


def topic_hotel(rng):
    """Nested hotel reservations export plus room types (Markdown) and rate plans (YAML)."""
    room_types = [dict(room_type_id="RT-SGL", name="Single", max_occupancy=1, base_rate_eur=90.0),
                  dict(room_type_id="RT-DBL", name="Double", max_occupancy=2, base_rate_eur=130.0),
                  dict(room_type_id="RT-TWN", name="Twin", max_occupancy=2, base_rate_eur=125.0),
                  dict(room_type_id="RT-FAM", name="Family", max_occupancy=4, base_rate_eur=190.0),
                  dict(room_type_id="RT-STE", name="Suite", max_occupancy=3, base_rate_eur=320.0)]
    plans = [dict(rate_plan_id="RP-FLEX", name="Flexible", refundable=True, breakfast_included=False,
                  price_adjustment_percent=0, min_nights=1),
             dict(rate_plan_id="RP-NREF", name="Non-refundable", refundable=False, breakfast_included=False,
                  price_adjustment_percent=-15, min_nights=1),
             dict(rate_plan_id="RP-BB", name="Bed and breakfast", refundable=True, breakfast_included=True,
                  price_adjustment_percent=12, min_nights=1),
             dict(rate_plan_id="RP-LONG", name="Long stay", refundable=True, breakfast_included=False,
                  price_adjustment_percent=-20, min_nights=7)]
    rate = {r["room_type_id"]: r["base_rate_eur"] for r in room_types}
    occupancy = {r["room_type_id"]: r["max_occupancy"] for r in room_types}
    hotels = {}
    for hid, name, city, cc, stars in HOTELS:
        rooms = [{"room_number": f"{floor}{k:02d}", "floor": floor,
                  "room_type_id": rng.choices(list(rate), weights=[2, 5, 3, 2, 1])[0]}
                 for floor in range(1, 5) for k in range(1, 7)]
        hotels[hid] = {"name": name, "city": city, "country_code": cc, "stars": stars, "rooms": rooms}
    guests = {}
    for i in range(1, 61):
        f, l = person(rng)
        guests[f"g{i:04d}"] = {"first_name": f, "last_name": l, "email": email(f, l, i),
                               "country_code": rng.choice(COUNTRIES)[0],
                               "loyalty": {"tier": rng.choice(["none", "silver", "gold", "platinum"]),
                                           "points": rng.randrange(0, 40000, 50)}}
    booked, reservations = {}, {}
    while len(reservations) < 120:
        hid = rng.choice(sorted(hotels))
        room = rng.choice(hotels[hid]["rooms"])
        plan = rng.choice(plans)
        nights = rng.randint(max(1, plan["min_nights"]), plan["min_nights"] + 6)
        check_in = day(rng, "2024-04-01", 180)
        span = (date.fromisoformat(check_in), date.fromisoformat(check_in) + timedelta(days=nights))
        key = (hid, room["room_number"])
        if any(a < span[1] and span[0] < b for a, b in booked.get(key, [])):
            continue  # never double-book a room
        booked.setdefault(key, []).append(span)
        nightly = round(rate[room["room_type_id"]] * (1 + plan["price_adjustment_percent"] / 100), 2)
        charges = [{"kind": "room", "nights": nights, "amount": round(nightly * nights, 2)}]
        for extra, lo, hi in [("minibar", 6, 45), ("parking", 20, 35), ("spa", 40, 120), ("late_checkout", 30, 30)]:
            if rng.random() < 0.2:
                charges.append({"kind": extra, "amount": money(rng, lo, hi)})
        reservations[f"r{len(reservations) + 1:05d}"] = {
            "hotel_id": hid, "room_number": room["room_number"], "guest_id": rng.choice(sorted(guests)),
            "rate_plan_id": plan["rate_plan_id"], "check_in": check_in, "check_out": span[1].isoformat(),
            "adults": rng.randint(1, occupancy[room["room_type_id"]]),
            "status": rng.choices(["confirmed", "checked_out", "cancelled", "no_show"], weights=[4, 5, 1, 1])[0],
            "currency": "EUR", "charges": charges}
    export = {"description": "Hotel reservations export: hotels with their rooms (room number, floor, room type), "
                             "guests with loyalty tier, and reservations that book a room for check-in and check-out "
                             "dates under a rate plan, with the charges collected. Object keys are record ids.",
              "hotels": hotels, "guests": guests, "reservations": reservations}
    return [
        doc("hotel/reservations_export.json", "nested", "Hotel reservations export", "", obj=export),
        doc("hotel/room_types.md", "md", "Hotel room types and base rates",
            "Room types used by the hotel reservation system (single, double, twin, family, suite) with maximum "
            "occupancy and base nightly rate in EUR.", [table("room_types", room_types, "room_type_id")]),
        doc("hotel/rate_plans.yaml", "yaml", "Hotel rate plans",
            "Rate plans for hotel reservations: flexible, non-refundable, bed and breakfast and long stay, with "
            "refundability, breakfast, price adjustment on the base rate and minimum nights.",
            [table("rate_plans", plans, "rate_plan_id")]),
    ]


RESTAURANTS = [("R01", "Trattoria Lucca", "Italian", "Boston"), ("R02", "Sakura Counter", "Japanese", "Seattle"),
               ("R03", "Casa Verde Taqueria", "Mexican", "Denver"), ("R04", "Saffron House", "Indian", "Chicago"),
               ("R05", "Cedar Grill", "Lebanese", "Dallas"), ("R06", "Route 9 Diner", "American", "Atlanta"),
               ("R07", "Lemongrass Kitchen", "Thai", "San Francisco"), ("R08", "Green Fork Cafe", "Vegan", "Miami")]
# (item, category, vegetarian); categories: starter, main, side, dessert, drink
MENUS = {
    "Italian": [("Bruschetta", "starter", True), ("Arancini", "starter", True), ("Caprese Salad", "starter", True),
                ("Margherita Pizza", "main", True), ("Spaghetti Carbonara", "main", False),
                ("Lasagne al Forno", "main", False), ("Risotto ai Funghi", "main", True),
                ("Tiramisu", "dessert", True), ("Panna Cotta", "dessert", True), ("Espresso", "drink", True)],
    "Japanese": [("Edamame", "starter", True), ("Miso Soup", "starter", True), ("Gyoza", "starter", False),
                 ("Salmon Nigiri", "main", False), ("Chicken Katsu Curry", "main", False),
                 ("Vegetable Tempura Udon", "main", True), ("Tonkotsu Ramen", "main", False),
                 ("Matcha Ice Cream", "dessert", True), ("Mochi", "dessert", True), ("Green Tea", "drink", True)],
    "Mexican": [("Guacamole and Chips", "starter", True), ("Elote", "side", True),
                ("Chicken Tinga Tacos", "main", False), ("Carnitas Burrito", "main", False),
                ("Bean and Cheese Quesadilla", "main", True), ("Fish Tacos", "main", False),
                ("Churros", "dessert", True), ("Tres Leches Cake", "dessert", True), ("Horchata", "drink", True)],
    "Indian": [("Vegetable Samosa", "starter", True), ("Onion Bhaji", "starter", True),
               ("Chicken Tikka Masala", "main", False), ("Lamb Rogan Josh", "main", False),
               ("Palak Paneer", "main", True), ("Chana Masala", "main", True), ("Garlic Naan", "side", True),
               ("Gulab Jamun", "dessert", True), ("Mango Lassi", "drink", True), ("Masala Chai", "drink", True)],
    "Lebanese": [("Hummus", "starter", True), ("Falafel", "starter", True), ("Fattoush", "starter", True),
                 ("Chicken Shawarma Plate", "main", False), ("Lamb Kofta", "main", False),
                 ("Mixed Grill", "main", False), ("Baklava", "dessert", True), ("Mint Lemonade", "drink", True)],
    "American": [("Buffalo Wings", "starter", False), ("Mozzarella Sticks", "starter", True),
                 ("Classic Cheeseburger", "main", False), ("Club Sandwich", "main", False),
                 ("Veggie Burger", "main", True), ("French Fries", "side", True), ("Apple Pie", "dessert", True),
                 ("Chocolate Milkshake", "dessert", True), ("Iced Tea", "drink", True)],
    "Thai": [("Chicken Satay", "starter", False), ("Fresh Spring Rolls", "starter", True),
             ("Tom Yum Soup", "starter", False), ("Pad Thai", "main", False), ("Green Curry with Tofu", "main", True),
             ("Massaman Beef Curry", "main", False), ("Jasmine Rice", "side", True),
             ("Mango Sticky Rice", "dessert", True), ("Thai Iced Tea", "drink", True)],
    "Vegan": [("Avocado Toast", "starter", True), ("Lentil Soup", "starter", True), ("Buddha Bowl", "main", True),
              ("Jackfruit Tacos", "main", True), ("Mushroom Stroganoff", "main", True),
              ("Chickpea Curry", "main", True), ("Chocolate Avocado Mousse", "dessert", True),
              ("Oat Latte", "drink", True), ("Cold-Pressed Juice", "drink", True)],
}
PRICE_RANGE = {"starter": (6, 12), "main": (13, 28), "side": (3, 6), "dessert": (6, 10), "drink": (3, 7)}


def topic_restaurant(rng):
    """Restaurants (HTML), menu items (CSV with a duplicate key) and an orders SQL dump."""
    restaurants = [dict(restaurant_id=r, name=n, cuisine=c, city=city, opens=rng.choice(["11:00", "11:30", "12:00"]),
                        closes=rng.choice(["21:30", "22:00", "23:00"])) for r, n, c, city in RESTAURANTS]
    items = []
    for rid, _, cuisine, _ in RESTAURANTS:
        for name, cat, veg in MENUS[cuisine]:
            items.append(dict(menu_item_id=f"M{len(items) + 1:03d}", restaurant_id=rid, name=name, category=cat,
                              price=money(rng, *PRICE_RANGE[cat]), vegetarian=veg, available=rng.random() > 0.08))
    dup = dict(rng.choice(items))
    dup["price"] = round(dup["price"] + 1.5, 2)  # deliberate wart: the same menu_item_id appears twice
    customers = []
    for i in range(1, 41):
        f, l = person(rng)
        customers.append(dict(customer_id=f"C{i:03d}", name=f"{f} {l}", email=email(f, l, i),
                              phone=f"+1-555-01{rng.randint(0, 99):02d}"))
    orders, lines = [], []
    for i in range(1, 121):
        rid = rng.choice(RESTAURANTS)[0]
        menu = [it for it in items if it["restaurant_id"] == rid and it["available"]]
        oid = f"O{i:05d}"
        orders.append(dict(order_id=oid, customer_id=rng.choice(customers)["customer_id"], restaurant_id=rid,
                           order_type=rng.choice(["dine_in", "takeaway", "delivery"]),
                           placed_at=f"{day(rng, '2024-05-01', 90)} {clock(rng, 11, 22, 5)}",
                           status=rng.choices(["received", "preparing", "ready", "completed", "cancelled"],
                                              weights=[1, 1, 1, 8, 1])[0]))
        for it in rng.sample(menu, rng.randint(1, 3)):
            lines.append(dict(line_id=len(lines) + 1, order_id=oid, menu_item_id=it["menu_item_id"],
                              quantity=rng.randint(1, 3), unit_price=it["price"]))
    return [
        doc("restaurant/restaurants.html", "html", "Restaurant group locations",
            "Our restaurants with cuisine, city and opening hours; each restaurant has its own menu and takes "
            "dine-in, takeaway and delivery orders.", [table("restaurants", restaurants, "restaurant_id")]),
        doc("restaurant/menu_items.csv", "csv", "Restaurant menu items",
            "Menu items of each restaurant with category (starter, main, side, dessert, drink), price in USD, "
            "vegetarian flag and availability.", [table("menu_items", items + [dup], "menu_item_id")]),
        doc("restaurant/orders.sql", "sql", "Restaurant ordering system dump: customers, orders and order lines",
            "Customers place restaurant orders (dine-in, takeaway, delivery); each order has order lines of menu "
            "items with quantity and unit price, and a status from received to completed.",
            [table("customers", customers, "customer_id"),
             table("orders", orders, "order_id", [("customer_id", "customers", "customer_id")]),
             table("order_lines", lines, "line_id", [("order_id", "orders", "order_id")])]),
    ]


INGREDIENTS = [
    ("onion", "vegetable", "g"), ("garlic", "vegetable", "clove"), ("tomato", "vegetable", "g"),
    ("carrot", "vegetable", "g"), ("potato", "vegetable", "g"), ("spinach", "vegetable", "g"),
    ("bell pepper", "vegetable", "g"), ("mushroom", "vegetable", "g"), ("courgette", "vegetable", "g"),
    ("lemon", "fruit", "piece"), ("apple", "fruit", "g"), ("banana", "fruit", "piece"), ("rice", "grain", "g"),
    ("pasta", "grain", "g"), ("flour", "grain", "g"), ("oats", "grain", "g"), ("egg", "egg", "piece"),
    ("milk", "dairy", "ml"), ("butter", "dairy", "g"), ("cheddar", "dairy", "g"), ("parmesan", "dairy", "g"),
    ("yogurt", "dairy", "g"), ("cream", "dairy", "ml"), ("chicken breast", "meat", "g"),
    ("beef mince", "meat", "g"), ("bacon", "meat", "g"), ("salmon fillet", "fish", "g"),
    ("cod fillet", "fish", "g"), ("prawns", "fish", "g"), ("chickpeas", "legume", "g"),
    ("lentils", "legume", "g"), ("black beans", "legume", "g"), ("tofu", "legume", "g"),
    ("olive oil", "oil", "ml"), ("sunflower oil", "oil", "ml"), ("salt", "spice", "tsp"),
    ("black pepper", "spice", "tsp"), ("cumin", "spice", "tsp"), ("paprika", "spice", "tsp"),
    ("chilli flakes", "spice", "tsp"), ("cinnamon", "spice", "tsp"), ("curry powder", "spice", "tbsp"),
    ("basil", "herb", "g"), ("parsley", "herb", "g"), ("coriander", "herb", "g"), ("sugar", "baking", "g"),
    ("baking powder", "baking", "tsp"), ("honey", "baking", "tbsp"), ("soy sauce", "condiment", "tbsp"),
    ("coconut milk", "other", "ml"), ("vegetable stock", "other", "ml"),
]
RECIPES = [
    ("Spaghetti Bolognese", "Italian", "easy", ["pasta", "beef mince", "onion", "garlic", "tomato", "olive oil", "parmesan", "basil"]),
    ("Tomato and Basil Pasta", "Italian", "easy", ["pasta", "tomato", "garlic", "basil", "olive oil", "parmesan"]),
    ("Mushroom Risotto", "Italian", "medium", ["rice", "mushroom", "onion", "vegetable stock", "butter", "parmesan"]),
    ("Bacon Carbonara", "Italian", "medium", ["pasta", "bacon", "egg", "parmesan", "black pepper"]),
    ("Chicken Curry", "Indian", "medium", ["chicken breast", "onion", "garlic", "tomato", "curry powder", "coconut milk", "rice", "coriander"]),
    ("Chana Masala", "Indian", "easy", ["chickpeas", "onion", "tomato", "garlic", "cumin", "paprika", "coriander"]),
    ("Red Lentil Dal", "Indian", "easy", ["lentils", "onion", "garlic", "cumin", "tomato", "vegetable stock"]),
    ("Beef Tacos", "Mexican", "easy", ["beef mince", "onion", "bell pepper", "paprika", "cumin", "cheddar", "tomato"]),
    ("Black Bean Chilli", "Mexican", "easy", ["black beans", "onion", "bell pepper", "tomato", "chilli flakes", "cumin", "rice"]),
    ("Salmon Teriyaki", "Japanese", "medium", ["salmon fillet", "soy sauce", "honey", "garlic", "rice"]),
    ("Tofu Stir-Fry", "Chinese", "easy", ["tofu", "bell pepper", "mushroom", "soy sauce", "garlic", "sunflower oil", "rice"]),
    ("Prawn Fried Rice", "Chinese", "medium", ["prawns", "rice", "egg", "soy sauce", "onion", "sunflower oil"]),
    ("Fish and Chips", "British", "hard", ["cod fillet", "potato", "flour", "sunflower oil", "salt", "lemon"]),
    ("Cottage Pie", "British", "medium", ["beef mince", "potato", "onion", "carrot", "butter", "milk"]),
    ("Apple Crumble", "British", "easy", ["apple", "flour", "butter", "sugar", "oats", "cinnamon"]),
    ("Carrot and Coriander Soup", "British", "easy", ["carrot", "onion", "vegetable stock", "coriander", "butter", "cream"]),
    ("Spinach Omelette", "French", "easy", ["egg", "spinach", "butter", "cheddar", "salt", "black pepper"]),
    ("Ratatouille", "French", "medium", ["courgette", "bell pepper", "tomato", "onion", "garlic", "olive oil", "basil"]),
    ("Lemon Garlic Chicken", "Mediterranean", "easy", ["chicken breast", "lemon", "garlic", "olive oil", "parsley", "potato"]),
    ("Shakshuka", "Middle Eastern", "easy", ["egg", "tomato", "bell pepper", "onion", "cumin", "paprika", "parsley"]),
    ("Hummus", "Middle Eastern", "easy", ["chickpeas", "garlic", "lemon", "olive oil", "cumin", "salt"]),
    ("Banana Oat Pancakes", "American", "easy", ["banana", "oats", "egg", "milk", "baking powder", "honey"]),
    ("Overnight Oats", "American", "easy", ["oats", "milk", "yogurt", "honey", "apple", "cinnamon"]),
    ("Mac and Cheese", "American", "easy", ["pasta", "cheddar", "milk", "butter", "flour", "salt"]),
    ("Buttermilk-Style Pancakes", "American", "easy", ["flour", "milk", "egg", "butter", "sugar", "baking powder"]),
    ("Baked Cod with Parsley", "British", "easy", ["cod fillet", "parsley", "lemon", "butter", "potato"]),
    ("Vegetable Coconut Curry", "Thai", "medium", ["coconut milk", "potato", "spinach", "curry powder", "onion", "rice"]),
    ("Yogurt Chicken Skewers", "Middle Eastern", "medium", ["chicken breast", "yogurt", "paprika", "garlic", "lemon"]),
]


def amount_for(rng, unit):
    """A plausible ingredient quantity for a unit."""
    if unit == "g":
        return rng.randrange(50, 625, 25)
    if unit == "ml":
        return rng.randrange(50, 550, 50)
    if unit in ("tsp", "tbsp"):
        return rng.choice([0.5, 1, 1, 2, 3])
    return rng.randint(1, 4)


def topic_recipes(rng):
    """Recipes (JSON), ingredients (CSV), recipe ingredients (Markdown), weekly meal plans (YAML)."""
    ing_id = {name: f"ING{i:02d}" for i, (name, _, _) in enumerate(INGREDIENTS, 1)}
    unit_of = {name: unit for name, _, unit in INGREDIENTS}
    ingredients = [dict(ingredient_id=ing_id[n], name=n, category=c, default_unit=u) for n, c, u in INGREDIENTS]
    recipes, parts = [], []
    for i, (title, cuisine, level, names) in enumerate(RECIPES, 1):
        rid = f"REC{i:02d}"
        recipes.append(dict(recipe_id=rid, title=title, cuisine=cuisine, servings=rng.choice([2, 2, 4, 4, 6]),
                            prep_minutes=rng.randrange(5, 35, 5), cook_minutes=rng.randrange(0, 75, 5),
                            difficulty=level))
        parts += [dict(recipe_id=rid, ingredient_id=ing_id[n], quantity=amount_for(rng, unit_of[n]),
                       unit=unit_of[n]) for n in names]
    plans = []
    for week in range(4):
        start = shift("2024-09-02", 7 * week)
        for d, dname in enumerate(["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]):
            for meal in ["dinner"] + (["lunch"] if rng.random() < 0.4 else []):
                plans.append(dict(plan_entry_id=f"MP{len(plans) + 1:03d}", week_start=start, day=dname,
                                  date=shift(start, d), meal=meal, recipe_id=rng.choice(recipes)["recipe_id"],
                                  servings=rng.choice([2, 3, 4])))
    return [
        doc("recipes/recipes.json", "json", "Recipe collection",
            "Saved recipes with title, cuisine, servings, preparation and cooking time in minutes and difficulty; "
            "ingredient quantities are in recipe_ingredients.md.", [table("recipes", recipes, "recipe_id")]),
        doc("recipes/ingredients.csv", "csv", "Recipe ingredients catalogue",
            "Ingredients used by the recipes, with ingredient category (vegetable, dairy, grain, spice, meat, fish, "
            "...) and default unit; the shopping list groups ingredients by category.",
            [table("ingredients", ingredients, "ingredient_id")]),
        doc("recipes/recipe_ingredients.md", "md", "Ingredient quantities per recipe",
            "Each row gives the quantity and unit of one ingredient in one recipe, for the recipe's stated servings; "
            "scale by servings when planning meals.", [table("recipe_ingredients", parts)]),
        doc("recipes/meal_plans.yaml", "yaml", "Weekly meal plans",
            "Sample weekly meal plan entries: for each day of the week and meal, the planned recipe and servings. "
            "The shopping list sums recipe ingredient quantities over the week.",
            [table("meal_plans", plans, "plan_entry_id")]),
    ]


# ---------------------------------------------------------------------------- topics: health, education
CLINIC_DEPTS = [("D01", "Cardiology", "cardiologist", 3, ["chest pain follow-up", "blood pressure review", "ECG results"]),
                ("D02", "Dermatology", "dermatologist", 2, ["skin rash", "mole check", "acne review"]),
                ("D03", "Paediatrics", "paediatrician", 1, ["vaccination visit", "fever", "growth check"]),
                ("D04", "General Practice", "general practitioner", 1, ["annual check-up", "persistent cough", "prescription review"]),
                ("D05", "Orthopaedics", "orthopaedic surgeon", 2, ["knee pain", "fracture follow-up", "back pain"]),
                ("D06", "Ophthalmology", "ophthalmologist", 3, ["eye exam", "blurred vision", "glaucoma check"])]


def topic_clinic(rng):
    """Departments and doctors (HTML), patients (CSV), appointments (SQL dump)."""
    departments = [dict(department_id=d, name=n, floor=f) for d, n, _, f, _ in CLINIC_DEPTS]
    doctors = []
    for d, _, spec, floor, _ in CLINIC_DEPTS:
        for _ in range(3):
            f, l = person(rng)
            doctors.append(dict(doctor_id=f"DR{len(doctors) + 1:02d}", name=f"Dr. {f} {l}", specialty=spec,
                                department_id=d, room=f"{floor}{rng.randint(1, 40):02d}"))
    patients = []
    for i in range(1, 81):
        f, l = person(rng)
        born = day(rng, "1940-01-01", 365 * 80)
        patients.append(dict(patient_id=f"P{i:04d}", first_name=f, last_name=l, date_of_birth=born,
                             phone=f"+1-555-02{rng.randint(0, 99):02d}", insurance_number=f"INS-{rng.randint(1000000, 9999999)}"))
    children = [p for p in patients if p["date_of_birth"] >= "2008-01-01"]
    reasons = {d: r for d, _, _, _, r in CLINIC_DEPTS}
    taken, appts = set(), []
    while len(appts) < 200:
        doctor = rng.choice(doctors)
        when = (day(rng, "2024-06-03", 60), clock(rng, 9, 17, 20))
        if (doctor["doctor_id"],) + when in taken:
            continue  # a doctor's slot is never double-booked
        taken.add((doctor["doctor_id"],) + when)
        pool = children if doctor["department_id"] == "D03" else patients
        appts.append(dict(appointment_id=f"A{len(appts) + 1:05d}", patient_id=rng.choice(pool)["patient_id"],
                          doctor_id=doctor["doctor_id"], date=when[0], time=when[1],
                          reason=rng.choice(reasons[doctor["department_id"]]),
                          status=rng.choices(["booked", "checked_in", "completed", "no_show", "cancelled"],
                                             weights=[4, 1, 6, 1, 1])[0]))
    appts.sort(key=lambda a: (a["date"], a["time"], a["appointment_id"]))
    return [
        doc("clinic/doctors.html", "html", "Outpatient clinic departments and doctors",
            "Clinic departments (cardiology, dermatology, paediatrics, general practice, orthopaedics, "
            "ophthalmology) with floor, and the doctors of each department with specialty and consulting room.",
            [table("departments", departments, "department_id"), table("doctors", doctors, "doctor_id")]),
        doc("clinic/patients.csv", "csv", "Clinic patients register",
            "Sample patient register of the outpatient clinic: patient id, name, date of birth, phone and "
            "insurance number. Patients book clinic appointments with doctors. Names are synthetic.", [table("patients", patients, "patient_id")]),
        doc("clinic/appointments.sql", "sql", "Clinic appointment scheduling dump",
            "Appointments link a patient to a doctor at a date and time with a reason for the visit and a status "
            "(booked, checked-in, completed, no-show, cancelled).", [table("appointments", appts, "appointment_id")]),
    ]


def topic_pharmacy(rng):
    """Medications (YAML facts), prescribers and patients (Markdown), prescriptions (JSON), fills (CSV)."""
    meds = [dict(medication_id=f"MED{i:02d}", generic_name=g, drug_class=c, dosage_form=f, strength=s)
            for i, (g, c, f, s) in enumerate(MEDICATIONS, 1)]
    specs = ["general practice", "cardiology", "endocrinology", "psychiatry", "respiratory medicine"]
    prescribers = []
    for i in range(1, 11):
        f, l = person(rng)
        prescribers.append(dict(prescriber_id=f"PR{i:02d}", name=f"Dr. {f} {l}", specialty=rng.choice(specs),
                                licence_number=f"LIC{rng.randint(100000, 999999)}"))
    patients = []
    for i in range(1, 41):
        f, l = person(rng)
        patients.append(dict(patient_id=f"PT{i:03d}", name=f"{f} {l}", date_of_birth=day(rng, "1940-01-01", 365 * 65)))
    doses = ["Take 1 {f} once daily", "Take 1 {f} twice daily", "Take 1 {f} three times daily with food",
             "Take 1 {f} at night", "Take 2 {f}s when needed, no more than 4 times a day"]
    prescriptions, fills = [], []
    pharmacists = [" ".join(person(rng)) for _ in range(5)]
    for i in range(1, 91):
        med = rng.choice(meds)
        form = "puff" if med["dosage_form"] == "inhaler" else med["dosage_form"]
        written = day(rng, "2023-09-01", 300)
        refills = rng.randint(0, 5)
        rx = f"RX{i:05d}"
        prescriptions.append(dict(prescription_id=rx, patient_id=rng.choice(patients)["patient_id"],
                                  prescriber_id=rng.choice(prescribers)["prescriber_id"],
                                  medication_id=med["medication_id"], written_on=written,
                                  dose_instructions=rng.choice(doses).format(f=form),
                                  quantity=rng.choice([28, 30, 56, 60, 90]), refills=refills,
                                  expires_on=shift(written, 365)))
        for k in range(rng.randint(1, refills + 1)):
            fills.append(dict(fill_id=f"F{len(fills) + 1:06d}", prescription_id=rx,
                              filled_on=shift(written, 30 * k + rng.randint(0, 5)), fill_number=k + 1,
                              pharmacist=rng.choice(pharmacists)))
    return [
        doc("pharmacy/medications.yaml", "yaml", "Pharmacy medication formulary",
            "Medications stocked by the community pharmacy, by generic name, drug class (for example statin or "
            "proton pump inhibitor), dosage form and a common strength.", [table("medications", meds, "medication_id")],
            source="facts: generic names, drug classes, common marketed strengths"),
        doc("pharmacy/people.md", "md", "Prescribers and pharmacy patients",
            "Sample prescribers (doctors who write prescriptions) and pharmacy patients; names are synthetic.",
            [table("prescribers", prescribers, "prescriber_id"), table("patients", patients, "patient_id")]),
        doc("pharmacy/prescriptions.json", "json", "Pharmacy prescriptions",
            "Prescriptions written by a prescriber for a patient: medication, dose instructions, quantity, number "
            "of refills allowed and expiry date.", [table("prescriptions", prescriptions, "prescription_id")]),
        doc("pharmacy/fills.csv", "csv", "Prescription fills (dispensing records)",
            "Each fill dispenses a prescription once, with the fill date, fill number and pharmacist; a prescription "
            "may be filled at most 1 + refills times.", [table("fills", fills, "fill_id")]),
    ]


UNI_DEPTS = [("CS", "Computer Science", "Turing Hall", ["Introduction to Programming", "Data Structures", "Algorithms", "Operating Systems", "Machine Learning"]),
             ("MATH", "Mathematics", "Noether Building", ["Calculus I", "Linear Algebra", "Probability", "Real Analysis", "Number Theory"]),
             ("PHYS", "Physics", "Curie Laboratory", ["Mechanics", "Electromagnetism", "Thermodynamics", "Quantum Mechanics", "Astrophysics"]),
             ("HIST", "History", "Archive House", ["World History", "Medieval Europe", "History of Science", "Modern Asia", "Economic History"]),
             ("ECON", "Economics", "Smith Hall", ["Principles of Microeconomics", "Macroeconomics", "Econometrics", "Game Theory", "Development Economics"]),
             ("BIO", "Biology", "Darwin Building", ["Cell Biology", "Genetics", "Ecology", "Microbiology", "Evolution"])]


def topic_university(rng):
    """Departments and instructors (Markdown), courses (CSV), students (JSON array), enrollments (TSV)."""
    departments = [dict(dept_code=c, name=n, building=b) for c, n, b, _ in UNI_DEPTS]
    instructors, courses = [], []
    for code, _, _, titles in UNI_DEPTS:
        staff = []
        for _ in range(rng.randint(3, 4)):
            f, l = person(rng)
            iid = f"I{len(instructors) + 1:02d}"
            staff.append(iid)
            instructors.append(dict(instructor_id=iid, name=f"Prof. {f} {l}", dept_code=code,
                                    title=rng.choice(["Professor", "Associate Professor", "Lecturer"])))
        for k, title in enumerate(titles):
            courses.append(dict(course_code=f"{code}{[101, 201, 230, 310, 350][k]}", title=title, dept_code=code,
                                credits=rng.choice([3, 4]), instructor_id=rng.choice(staff), term="2024-fall",
                                capacity=rng.randrange(20, 45, 5)))
    students = []
    for i in range(1, 81):
        f, l = person(rng)
        students.append(dict(student_id=f"S24{i:03d}", first_name=f, last_name=l,
                             email=email(f, l, i, "example.edu"), major=rng.choice(UNI_DEPTS)[0],
                             year=rng.randint(1, 4)))
    seats = {c["course_code"]: c["capacity"] for c in courses}
    enrollments = []
    for s in students:
        for c in rng.sample(courses, rng.randint(3, 4)):
            code = c["course_code"]
            status = rng.choices(["enrolled", "dropped"], weights=[9, 1])[0]
            if status == "enrolled":
                if seats[code] == 0:
                    status = "waitlisted"
                else:
                    seats[code] -= 1
            grade = rng.choice(["A", "A", "B", "B", "B", "C", "C", "D", "F"]) if status == "enrolled" else None
            enrollments.append(dict(enrollment_id=f"E{len(enrollments) + 1:05d}", student_id=s["student_id"],
                                    course_code=code, status=status, grade=grade))
    return [
        doc("university/instructors.md", "md", "University departments and instructors",
            "Academic departments with their building, and the instructors (faculty) of each department.",
            [table("departments", departments, "dept_code"), table("instructors", instructors, "instructor_id")]),
        doc("university/courses.csv", "csv", "Course catalogue for course registration",
            "Courses offered this term with course code, title, department, credits, instructor and capacity; "
            "students enrol in courses during course registration.", [table("courses", courses, "course_code")]),
        doc("university/students.json", "json", "University students",
            "Students who register for courses: student id, name, university email, major department and year of "
            "study. Course registration records (enrollments) refer to these students.",
            [table("students", students, "student_id")]),
        doc("university/enrollments.tsv", "tsv", "Course enrollments and grades",
            "Course registration records: a student's enrollment in a course with status (enrolled, waitlisted, "
            "dropped) and final grade.", [table("enrollments", enrollments, "enrollment_id")]),
    ]


LMS_COURSES = [("Intro to Data Analysis", "beginner", ["Spreadsheets basics", "Cleaning data", "Charts that work", "Pivot tables", "Summary statistics", "Final project"]),
               ("Web Development Fundamentals", "beginner", ["HTML structure", "CSS layout", "JavaScript basics", "Forms", "Deploying a site"]),
               ("Personal Finance Essentials", "beginner", ["Budgeting", "Saving and emergency funds", "Credit and debt", "Investing basics"]),
               ("Digital Photography", "intermediate", ["Exposure triangle", "Composition", "Lighting", "Editing workflow", "Portraits", "Landscapes"]),
               ("Project Management Basics", "intermediate", ["Scoping a project", "Scheduling", "Risk management", "Stakeholders", "Closing a project"]),
               ("Spanish for Travellers", "beginner", ["Greetings", "Numbers and prices", "Directions", "At the restaurant", "At the hotel", "Emergencies"]),
               ("Statistics with Python", "advanced", ["NumPy arrays", "Distributions", "Hypothesis tests", "Regression", "Bootstrap", "Reporting"]),
               ("Public Speaking", "intermediate", ["Overcoming nerves", "Structuring a talk", "Slides", "Voice and body language", "Q&A"])]


def topic_lms(rng):
    """Online courses (YAML), lessons and quizzes (Markdown), learners (JSON array), quiz attempts (CSV)."""
    courses, lessons, quizzes = [], [], []
    for i, (title, level, names) in enumerate(LMS_COURSES, 1):
        cid = f"CRS{i:02d}"
        courses.append(dict(course_id=cid, title=title, level=level, instructor=" ".join(person(rng)),
                            published=day(rng, "2022-01-01", 600)))
        for pos, name in enumerate(names, 1):
            lid = f"L{len(lessons) + 1:03d}"
            lessons.append(dict(lesson_id=lid, course_id=cid, position=pos, title=name,
                                video_minutes=rng.randint(6, 35)))
            if rng.random() < 0.7:
                quizzes.append(dict(quiz_id=f"Q{len(quizzes) + 1:03d}", lesson_id=lid,
                                    questions=rng.choice([5, 8, 10, 12]), passing_score=rng.choice([60, 70, 80])))
    learners = []
    for i in range(1, 51):
        f, l = person(rng)
        learners.append(dict(learner_id=f"LR{i:03d}", display_name=f"{f} {l[0]}.",
                             country_code=rng.choice(COUNTRIES)[0], joined=day(rng, "2023-01-01", 500)))
    attempts = []
    passing = {q["quiz_id"]: q["passing_score"] for q in quizzes}
    pairs = rng.sample([(l["learner_id"], q["quiz_id"]) for l in learners for q in quizzes], 110)
    for learner_id, quiz_id in sorted(pairs):
        for n in range(1, rng.randint(1, 3) + 1):  # at most three attempts, none after a pass
            score = rng.randint(30, 100)
            attempts.append(dict(attempt_id=f"AT{len(attempts) + 1:05d}", quiz_id=quiz_id,
                                 learner_id=learner_id, attempt_number=n, score=score,
                                 passed=score >= passing[quiz_id], minutes_taken=rng.randint(3, 25),
                                 taken_on=day(rng, "2024-01-01", 300)))
            if score >= passing[quiz_id]:
                break
    return [
        doc("lms/courses.yaml", "yaml", "Online learning platform courses",
            "Courses of the online learning platform with level, instructor and publication date; each course "
            "contains ordered lessons, many with a quiz.", [table("courses", courses, "course_id")]),
        doc("lms/lessons.md", "md", "Course lessons and quizzes",
            "Ordered lessons of each online course, and the lesson quizzes with number of multiple-choice "
            "questions and passing score (percent).",
            [table("lessons", lessons, "lesson_id"), table("quizzes", quizzes, "quiz_id")]),
        doc("lms/learners.json", "json", "Online learning platform learners",
            "Learners enrolled on the online learning platform who take course lessons and make quiz attempts, with "
            "display name, country code and join date.", [table("learners", learners, "learner_id")]),
        doc("lms/quiz_attempts.csv", "csv", "Quiz attempts by learners",
            "Each quiz attempt records the learner, quiz, attempt number (at most three), score, pass or fail "
            "against the passing score, and minutes taken.", [table("quiz_attempts", attempts, "attempt_id")]),
    ]


def topic_library(rng):
    """Authors and books (facts), branches and copies (HTML), members and loans (Markdown)."""
    author_id = {a[0]: f"AU{i:02d}" for i, a in enumerate(AUTHORS, 1)}
    authors = [dict(author_id=author_id[n], name=n, birth_year=b, death_year=d, nationality=nat)
               for n, b, d, nat in AUTHORS]
    books = [dict(book_id=f"BK{i:03d}", title=t, author_id=author_id[a], first_published=y, language=lang)
             for i, (t, a, y, lang) in enumerate(BOOKS, 1)]
    branches = [dict(branch_id=f"BR{i}", name=f"{town} Library", city=town)
                for i, town in enumerate(rng.sample(TOWNS, 4), 1)]
    copies = []
    for b in books:
        for _ in range(rng.randint(1, 4)):
            copies.append(dict(copy_id=f"CP{len(copies) + 1:04d}", book_id=b["book_id"],
                               branch_id=rng.choice(branches)["branch_id"],
                               shelf=f"FIC {b['title'][0].upper()}-{rng.randint(1, 9)}"))
    members = []
    for i in range(1, 41):
        f, l = person(rng)
        members.append(dict(member_id=f"MB{i:03d}", name=f"{f} {l}", joined=day(rng, "2019-01-01", 1800)))
    loans = []
    for c in copies:
        start = date.fromisoformat(day(rng, "2024-01-01", 40))
        while start < date(2024, 10, 1) and rng.random() < 0.8:  # consecutive loans never overlap
            due = start + timedelta(days=21)
            back = start + timedelta(days=rng.randint(3, 30))
            returned = back.isoformat() if back < date(2024, 10, 1) else None
            loans.append(dict(loan_id=f"LN{len(loans) + 1:05d}", copy_id=c["copy_id"],
                              member_id=rng.choice(members)["member_id"], loaned_on=start.isoformat(),
                              due_on=due.isoformat(), returned_on=returned))
            if returned is None:
                break
            start = back + timedelta(days=rng.randint(1, 40))
    loans = sorted(loans, key=lambda x: (x["loaned_on"], x["loan_id"]))[:280]
    return [
        doc("library/authors.csv", "csv", "Library catalog: authors",
            "Authors in the public library catalog with birth year, death year and nationality.",
            [table("authors", authors, "author_id")], source="facts: author life dates and nationality"),
        doc("library/books.json", "json", "Library catalog: books",
            "Books (classic novels) in the public library catalog with title, author, year first published in book form "
            "and original language (ISO 639-1).", [table("books", books, "book_id")],
            source="facts: titles, authors, year of first book edition"),
        doc("library/holdings.html", "html", "Library branches and book copies",
            "Sample library branches and the physical copies of each book they hold, with shelf location; members "
            "borrow copies through loans.", [table("branches", branches, "branch_id"), table("copies", copies, "copy_id")]),
        doc("library/loans.md", "md", "Library members and loans",
            "Sample library members and circulation loans: a member checks out a copy, with loan date, due date "
            "and return date (empty while on loan).", [table("members", members, "member_id"), table("loans", loans, "loan_id")]),
    ]


# ---------------------------------------------------------------------------- topics: finance
COMPANY_A = ["Northwind", "Bluepeak", "Ironbark", "Silverline", "Redwood", "Brightwater", "Kestrel",
             "Larkspur", "Summit", "Harbor", "Copperleaf", "Juniper", "Meridian", "Oakmont", "Pinecrest",
             "Quarry", "Riverside", "Sable", "Tidewater", "Willow"]
COMPANY_B = ["Studio", "Labs", "Consulting", "Design", "Logistics", "Foods", "Analytics", "Media",
             "Partners", "Works"]


def company(rng, used):
    """A fictional company name not used before."""
    while True:
        name = f"{rng.choice(COMPANY_A)} {rng.choice(COMPANY_B)}"
        if name not in used:
            used.add(name)
            return name


def topic_bank(rng):
    """Branches (Markdown), customers (CSV), accounts and cards (SQL), transactions (CSV, one ragged row)."""
    branches = [dict(branch_id=f"BR{i:02d}", name=f"{town} Branch", city=town,
                     sort_code=f"{rng.randint(10, 99)}-{rng.randint(10, 99)}-{rng.randint(10, 99)}")
                for i, town in enumerate(rng.sample(TOWNS, 6), 1)]
    customers, accounts, cards, numbers = [], [], [], set()
    for i in range(1, 61):
        f, l = person(rng)
        cid, branch = f"CU{i:04d}", rng.choice(branches)["branch_id"]
        customers.append(dict(customer_id=cid, first_name=f, last_name=l, email=email(f, l, i),
                              date_of_birth=day(rng, "1950-01-01", 365 * 55), branch_id=branch,
                              customer_since=day(rng, "2010-01-01", 365 * 14)))
        for kind in ["checking"] + rng.sample(["savings", "savings", "checking"], rng.randint(0, 1)):
            number = unique_code(rng, numbers, "0123456789", 8)
            accounts.append(dict(account_number=number, customer_id=cid, branch_id=branch, account_type=kind,
                                 currency=rng.choices(["USD", "EUR", "GBP"], weights=[8, 1, 1])[0],
                                 opened=day(rng, "2015-01-01", 3000),
                                 status=rng.choices(["active", "frozen"], weights=[12, 1])[0], balance=0.0))
            if kind == "checking":
                cards.append(dict(card_id=f"CD{len(cards) + 1:04d}", account_number=number, card_type="debit",
                                  last4=f"{rng.randint(0, 9999):04d}", expires=f"{rng.randint(1, 12):02d}/{rng.randint(2025, 2029)}"))
    merchants = ["Fresh Market", "City Transit", "Corner Cafe", "Online Books", "Fuel Stop", "Pharmacy Plus",
                 "Hardware Depot", "Streaming Service", "Electric Utility", "Gym Membership"]
    events = []
    for _ in range(240):
        acct = rng.choice(accounts)
        kind = rng.choices(["deposit", "withdrawal", "card_payment", "interest"], weights=[3, 2, 5, 1])[0]
        events.append((day(rng, "2024-01-01", 270), kind, acct["account_number"], None))
    for _ in range(20):
        a, b = rng.sample(accounts, 2)
        events.append((day(rng, "2024-01-01", 270), "transfer", a["account_number"], b["account_number"]))
    events.sort()
    balance = {a["account_number"]: 0.0 for a in accounts}
    txns = []

    def post(when, kind, acct, amount, memo, other=None):
        """Append one transaction row and update the running balance."""
        balance[acct] = round(balance[acct] + amount, 2)
        txns.append(dict(transaction_id=f"TX{len(txns) + 1:06d}", account_number=acct, posted_on=when, type=kind,
                         amount=amount, balance_after=balance[acct], counterparty_account=other, memo=memo))

    for when, kind, acct, other in events:
        if kind == "transfer":
            amount = money(rng, 20, 400)
            if balance[acct] >= amount:
                post(when, "transfer_out", acct, -amount, "Transfer to own account", other)
                post(when, "transfer_in", other, amount, "Transfer from own account", acct)
            continue
        amount = {"deposit": money(rng, 100, 3000), "interest": money(rng, 0.5, 12)}.get(kind, money(rng, 5, 250))
        if kind in ("withdrawal", "card_payment") and balance[acct] < amount:
            kind, amount = "deposit", money(rng, 100, 3000)  # keep balances non-negative
        memo = {"deposit": "Salary deposit", "interest": "Monthly interest", "withdrawal": "ATM withdrawal"}.get(
            kind, rng.choice(merchants))
        post(when, kind, acct, amount if kind in ("deposit", "interest") else -amount, memo)
    for a in accounts:
        a["balance"] = balance[a["account_number"]]
    return [
        doc("bank/branches.md", "md", "Retail bank branches",
            "Branches of the retail bank with city and sort code; customers and accounts are opened at a branch.",
            [table("branches", branches, "branch_id")]),
        doc("bank/customers.csv", "csv", "Retail bank customers",
            "Retail bank customers who hold checking and savings accounts, with name, email, date of birth, home "
            "branch and customer-since date. Names are synthetic.",
            [table("customers", customers, "customer_id")]),
        doc("bank/accounts.sql", "sql", "Core banking dump: accounts and debit cards",
            "Checking and savings accounts held by bank customers, with account number, branch, currency, opening "
            "date, status (active or frozen) and current balance; debit cards are issued on checking accounts.",
            [table("accounts", accounts, "account_number"),
             table("cards", cards, "card_id", [("account_number", "accounts", "account_number")])]),
        doc("bank/transactions.csv", "csv", "Account transactions",
            "Transactions posted to bank accounts: deposits, withdrawals, card payments, interest and transfers "
            "between accounts (transfer_out and transfer_in with the counterparty account), with the balance after "
            "each transaction and a merchant memo.", [table("transactions", txns, "transaction_id")],
            ragged=rng.randrange(40, 200)),
    ]


INVOICE_SERVICES = [("Website design", 400, 2500), ("Consulting hours", 80, 160), ("Logo package", 300, 900),
                    ("Monthly hosting", 20, 90), ("Copywriting", 60, 120), ("Data analysis report", 500, 3000),
                    ("Photography session", 250, 800), ("Support retainer", 300, 1200)]


def topic_invoicing(rng):
    """Clients (Markdown), invoices (JSON), invoice lines (CSV), payments (TSV)."""
    currency_of = {c[0]: c[5] for c in COUNTRIES}
    used, clients = set(), []
    for i in range(1, 21):
        name = company(rng, used)
        cc = rng.choice(["US", "GB", "DE", "FR", "NL", "CA", "AU", "IE", "ES", "SE"])
        clients.append(dict(client_id=f"CL{i:02d}", name=name, country_code=cc, currency=currency_of[cc],
                            payment_terms_days=rng.choice([14, 30, 30, 45]),
                            billing_email=f"billing@{name.lower().replace(' ', '-')}.example"))
    invoices, lines, payments = [], [], []
    for i in range(1, 71):
        client = rng.choice(clients)
        issued = day(rng, "2024-01-01", 260)
        due = shift(issued, client["payment_terms_days"])
        inv = f"INV-2024-{i:04d}"
        total = 0.0
        for desc, lo, hi in rng.sample(INVOICE_SERVICES, rng.randint(1, 4)):
            qty = rng.randint(1, 20) if desc == "Consulting hours" else 1
            price, tax = money(rng, lo, hi), rng.choice([0.0, 0.1, 0.2])
            total += qty * price * (1 + tax)
            lines.append(dict(line_id=f"LI{len(lines) + 1:05d}", invoice_id=inv, description=desc, quantity=qty,
                              unit_price=price, tax_rate=tax))
        total = round(total, 2)
        status = rng.choices(["draft", "sent", "partially_paid", "paid", "void"], weights=[1, 3, 2, 8, 1])[0]
        if status == "paid":
            first = round(total * rng.choice([1.0, 1.0, 0.5]), 2)
            amounts = [first] if first == total else [first, round(total - first, 2)]
        else:
            amounts = [round(total * rng.uniform(0.2, 0.7), 2)] if status == "partially_paid" else []
        for k, amt in enumerate(amounts):
            payments.append(dict(payment_id=f"PAY{len(payments) + 1:04d}", invoice_id=inv,
                                 paid_on=shift(issued, rng.randint(3, 40) + 10 * k), amount=amt,
                                 method=rng.choice(["bank_transfer", "card"])))
        invoices.append(dict(invoice_id=inv, client_id=client["client_id"], issue_date=issued, due_date=due,
                             currency=client["currency"], total=total, status=status))
    return [
        doc("invoicing/clients.md", "md", "Invoicing clients",
            "Clients billed by the small business invoicing system, with billing country, invoice currency, "
            "payment terms in days and billing email.", [table("clients", clients, "client_id")]),
        doc("invoicing/invoices.json", "json", "Invoices",
            "Invoices sent to clients with issue date, due date, currency, total including tax and status (draft, "
            "sent, partially paid, paid, void); invoice lines and payments are in separate files.",
            [table("invoices", invoices, "invoice_id")]),
        doc("invoicing/invoice_lines.csv", "csv", "Invoice line items",
            "Invoice lines of each client invoice in the small business invoicing system: description, quantity, "
            "unit price and tax rate; the invoice total is the sum of the lines including tax.",
            [table("invoice_lines", lines, "line_id")]),
        doc("invoicing/payments.tsv", "tsv", "Invoice payments received",
            "Payments recorded against invoices by bank transfer or card; an invoice may be paid in parts.",
            [table("payments", payments, "payment_id")]),
    ]


def topic_portfolio(rng):
    """Securities (CSV), portfolios (YAML), trades (JSON array), daily closing prices (Markdown)."""
    exchanges = [("NYSE", "USD"), ("NASDAQ", "USD"), ("LSE", "GBP"), ("XETRA", "EUR")]
    used, securities = set(), []
    while len(securities) < 20:
        name = company(rng, used)
        ticker = (name.split()[0][:3] + name.split()[1][0]).upper()
        if any(s["ticker"] == ticker for s in securities):
            continue
        ex, cur = rng.choice(exchanges)
        cls = rng.choices(["equity", "etf", "bond_fund"], weights=[6, 2, 1])[0]
        securities.append(dict(ticker=ticker, name=name + (" Index ETF" if cls == "etf" else " Bond Fund" if cls == "bond_fund" else " plc" if ex == "LSE" else " Inc."),
                               exchange=ex, asset_class=cls, currency=cur))
    days = [shift("2024-09-02", k) for k in range(14) if date.fromisoformat(shift("2024-09-02", k)).weekday() < 5]
    prices, close = [], {}
    for s in securities:
        p = money(rng, 10, 400)
        for d in days:
            p = round(max(1.0, p * (1 + rng.gauss(0, 0.015))), 2)
            close[(s["ticker"], d)] = p
            prices.append(dict(ticker=s["ticker"], date=d, close=p))
    portfolios = []
    for i in range(1, 9):
        portfolios.append(dict(portfolio_id=f"PF{i:02d}", investor=" ".join(person(rng)),
                               base_currency=rng.choice(["USD", "USD", "EUR", "GBP"]), opened=day(rng, "2020-01-01", 1500)))
    orders = sorted((rng.choice(days), rng.choice(portfolios)["portfolio_id"], rng.choice(securities)["ticker"],
                     rng.randint(1, 50)) for _ in range(150))
    held, trades = {}, []
    for i, (d, pf, ticker, qty) in enumerate(orders, 1):
        key = (pf, ticker)
        side = "sell" if held.get(key, 0) >= qty and rng.random() < 0.5 else "buy"  # never sell more than held
        held[key] = held.get(key, 0) + (qty if side == "buy" else -qty)
        trades.append(dict(trade_id=f"TD{i:04d}", portfolio_id=pf, ticker=ticker, side=side, quantity=qty,
                           price=round(close[(ticker, d)] * rng.uniform(0.995, 1.005), 2),
                           fees=rng.choice([0.0, 1.0, 4.95]), trade_date=d))
    return [
        doc("portfolio/securities.csv", "csv", "Securities master for the portfolio tracker",
            "Securities (fictional companies and funds) with ticker, exchange, asset class and trading currency.",
            [table("securities", securities, "ticker")]),
        doc("portfolio/portfolios.yaml", "yaml", "Investment portfolios",
            "Investment portfolios owned by an investor, with base currency and opening date.",
            [table("portfolios", portfolios, "portfolio_id")]),
        doc("portfolio/trades.json", "jsonarr", "", "", [table("trades", trades, "trade_id")]),
        doc("portfolio/prices.md", "md", "Daily closing prices",
            "Daily closing prices per ticker for the portfolio tracker (holdings, market value and performance "
            "use these prices); trades are recorded in trades.json.", [table("prices", prices)]),
    ]


# ---------------------------------------------------------------------------- topics: developer tools, productivity
REPO_NAMES = ["tiny-http", "csv-tools", "weather-cli", "budget-app", "dotfiles", "image-resizer", "todo-api",
              "markdown-lint", "chess-engine", "recipe-site", "log-parser", "k8s-manifests", "ml-notebooks",
              "pixel-editor", "static-blog", "rate-limiter", "json-schema-gen", "home-automation",
              "sudoku-solver", "url-shortener", "graph-algos", "cli-spinner", "pdf-merge", "kv-store",
              "game-of-life", "doc-site", "sql-formatter", "snake-game", "api-gateway", "bookmark-sync"]
ISSUE_TITLES = ["Crash when input file is empty", "Add support for {x}", "Docs: clarify {x} section",
                "Tests fail on Windows", "Memory leak in {x}", "Upgrade dependency {x}", "Typo in README",
                "Feature request: dark mode", "Slow startup with large configs", "Wrong exit code on error"]


def topic_code_hosting(rng):
    """Users (YAML), repositories (JSON, one record of another shape), issues (CSV), pull requests (Markdown)."""
    users, logins = [], set()
    for i in range(25):
        f, l = person(rng)
        login = f"{f}{l}".lower()[:10] + str(rng.randint(1, 99))
        if login in logins:
            continue
        logins.add(login)
        users.append(dict(login=login, name=f"{f} {l}", joined=day(rng, "2016-01-01", 2800), location=rng.choice(TOWNS)))
    repos = []
    for i, name in enumerate(REPO_NAMES, 1):
        repos.append(dict(repo_id=f"RP{i:03d}", owner=rng.choice(users)["login"], name=name,
                          description=f"{name.replace('-', ' ').capitalize()} - a small open-source project",
                          language=rng.choice(["Python", "Go", "Rust", "TypeScript", "JavaScript", "Java", "C", "Ruby"]),
                          visibility=rng.choices(["public", "private"], weights=[4, 1])[0],
                          stars=int(rng.paretovariate(1.2) * 3), created=day(rng, "2018-01-01", 2200), default_branch="main"))
    odd = repos[rng.randrange(len(repos))]  # deliberate wart: one record with a different shape
    del odd["language"], odd["stars"]
    odd.update(archived=True, topics=["archived", "legacy"])
    issues, prs, counters = [], [], {}
    labels = ["bug", "enhancement", "documentation", "good first issue", "help wanted"]
    for i in range(1, 201):
        repo = rng.choice(repos)
        counters[repo["repo_id"]] = counters.get(repo["repo_id"], 0) + 1
        state = rng.choices(["open", "closed"], weights=[2, 3])[0]
        created = day(rng, "2023-06-01", 450)
        issues.append(dict(issue_id=f"IS{i:04d}", repo_id=repo["repo_id"], number=counters[repo["repo_id"]],
                           title=rng.choice(ISSUE_TITLES).format(x=rng.choice(["CSV export", "config", "the parser", "caching"])),
                           state=state, author=rng.choice(users)["login"],
                           assignee=rng.choice(users)["login"] if rng.random() < 0.6 else None,
                           labels=";".join(sorted(rng.sample(labels, rng.randint(0, 2)))),
                           created=created, closed=shift(created, rng.randint(1, 60)) if state == "closed" else None))
    for i in range(1, 91):
        repo = rng.choice(repos)
        counters[repo["repo_id"]] = counters.get(repo["repo_id"], 0) + 1
        author, reviewer = rng.sample(users, 2)
        topic = rng.choice(["fix-empty-input", "add-dark-mode", "refactor-cli", "bump-deps", "docs-update", "speed-up-startup"])
        prs.append(dict(pr_id=f"PR{i:04d}", repo_id=repo["repo_id"], number=counters[repo["repo_id"]],
                        title=topic.replace("-", " ").capitalize(), author=author["login"],
                        source_branch=f"{author['login']}/{topic}", target_branch="main",
                        state=rng.choices(["open", "merged", "closed"], weights=[2, 5, 1])[0], reviewer=reviewer["login"]))
    return [
        doc("code_hosting/users.yaml", "yaml", "Code hosting platform users",
            "Users (logins) of the self-hosted code hosting platform; users own repositories, open issues and "
            "author or review pull requests.", [table("users", users, "login")]),
        doc("code_hosting/repositories.json", "json", "Code repositories",
            "Repositories with owner login, name, description, main language, visibility, star count, creation date "
            "and default branch.", [table("repositories", repos, "repo_id")]),
        doc("code_hosting/issues.csv", "csv", "Repository issues",
            "Issues filed on repositories with number, title, state (open or closed), author, assignee, labels "
            "(semicolon separated) and dates.", [table("issues", issues, "issue_id")]),
        doc("code_hosting/pull_requests.md", "md", "Pull requests",
            "Pull requests on repositories with source branch, target branch, author, requested reviewer and merge "
            "state (open, merged, closed).", [table("pull_requests", prs, "pr_id")]),
    ]


def topic_ci(rng):
    """Runners (Markdown) and a CI SQL dump: projects, pipelines, pipeline runs and jobs."""
    runners = [dict(runner_id=f"RUN{i:02d}", name=f"{os_}-runner-{i}", os=os_, labels=lab, status=rng.choice(["online", "online", "offline"]))
               for i, (os_, lab) in enumerate([("linux", "linux,x64,docker"), ("linux", "linux,x64,docker"),
                                               ("linux", "linux,arm64"), ("linux", "linux,x64,gpu"),
                                               ("macos", "macos,arm64"), ("macos", "macos,x64"),
                                               ("windows", "windows,x64"), ("linux", "linux,x64,docker")], 1)]
    projects = [dict(project_id=f"PRJ{i:02d}", name=n, repository_url=f"https://git.example.com/team/{n}")
                for i, n in enumerate(["payments-api", "web-frontend", "mobile-app", "data-pipeline", "auth-service", "docs-site"], 1)]
    pipelines = []
    for p in projects:
        for name in rng.sample(["default", "nightly", "release"], 2):
            pipelines.append(dict(pipeline_id=f"PL{len(pipelines) + 1:02d}", project_id=p["project_id"], name=name,
                                  stages="build,test,deploy"))
    runs, jobs = [], []
    for i in range(1, 86):
        pl = rng.choice(pipelines)
        branch = rng.choice(["main", "main", "develop", "feature/login", "fix/timeout"])
        run_id = 1000 + i
        started = f"{day(rng, '2024-08-01', 60)}T{clock(rng, 0, 24, 1)}:00Z"
        specs = [("build", "compile"), ("test", "unit-tests"), ("test", "lint")] + ([("deploy", "deploy-staging")] if branch == "main" else [])
        failed = rng.random() < 0.2
        bad = rng.randrange(len(specs)) if failed else None
        total = 0
        for k, (stage, name) in enumerate(specs):
            status = "failed" if k == bad else ("skipped" if bad is not None and k > bad else "success")
            secs = 0 if status == "skipped" else rng.randint(20, 600)
            total += secs
            jobs.append(dict(job_id=len(jobs) + 1, run_id=run_id, stage=stage, name=name,
                             runner_id=rng.choice(runners)["runner_id"], status=status,
                             exit_code=None if status == "skipped" else (1 if status == "failed" else 0),
                             duration_seconds=secs, log_url=f"https://ci.example.com/logs/{run_id}/{len(jobs) + 1}"))
        runs.append(dict(run_id=run_id, pipeline_id=pl["pipeline_id"], branch=branch,
                         commit_sha="".join(rng.choice("0123456789abcdef") for _ in range(7)),
                         triggered_by=rng.choice(["push", "schedule", "manual"]), started_at=started,
                         duration_seconds=total, status="failed" if failed else "success"))
    return [
        doc("ci/runners.md", "md", "CI runners",
            "Continuous integration runners with operating system, labels and status; CI jobs run on runners whose "
            "labels match.", [table("runners", runners, "runner_id")]),
        doc("ci/pipeline_runs.sql", "sql", "Continuous integration dump: projects, pipelines, runs and jobs",
            "CI projects define pipelines with stages (build, test, deploy); each pipeline run is triggered by a "
            "commit on a branch and runs jobs on runners, recording status, exit code, duration and log URL.",
            [table("projects", projects, "project_id"),
             table("pipelines", pipelines, "pipeline_id", [("project_id", "projects", "project_id")]),
             table("pipeline_runs", runs, "run_id", [("pipeline_id", "pipelines", "pipeline_id")]),
             table("jobs", jobs, "job_id", [("run_id", "pipeline_runs", "run_id")])]),
    ]


HELPDESK_TEAMS = [("TM1", "Billing", ["Charged twice this month", "Refund not received", "Update billing address", "Invoice missing VAT number"]),
                  ("TM2", "Technical Support", ["App crashes on login", "Cannot reset password", "Sync stuck at 90%", "Error 500 on export"]),
                  ("TM3", "Accounts", ["Close my account", "Change account owner", "Add a second user", "Two-factor codes not arriving"]),
                  ("TM4", "Shipping", ["Parcel not delivered", "Wrong item received", "Change delivery date", "Damaged package"])]


def topic_helpdesk(rng):
    """Teams and agents (Markdown), tickets (CSV), ticket comments (JSON)."""
    teams = [dict(team_id=t, name=n) for t, n, _ in HELPDESK_TEAMS]
    agents = []
    for t, _, _ in HELPDESK_TEAMS:
        for _ in range(rng.randint(3, 4)):
            f, l = person(rng)
            agents.append(dict(agent_id=f"AG{len(agents) + 1:02d}", name=f"{f} {l}", team_id=t,
                               email=email(f, l, len(agents) + 1, "support.example.com")))
    tickets, comments = [], []
    for i in range(1, 141):
        team_id, _, subjects = rng.choice(HELPDESK_TEAMS)
        f, l = person(rng)
        status = rng.choices(["open", "pending", "solved", "closed"], weights=[3, 2, 3, 4])[0]
        team_agents = [a["agent_id"] for a in agents if a["team_id"] == team_id]
        created = f"{day(rng, '2024-07-01', 90)} {clock(rng, 0, 24, 1)}"
        tid = f"TK-{1000 + i}"
        tickets.append(dict(ticket_id=tid, customer_email=email(f, l, i, "customer.example"),
                            subject=rng.choice(subjects), category=team_id,
                            priority=rng.choices(["low", "normal", "high", "urgent"], weights=[2, 5, 2, 1])[0],
                            status=status, channel=rng.choice(["email", "web"]),
                            assigned_agent=rng.choice(team_agents) if status != "open" or rng.random() < 0.5 else None,
                            created_at=created, solved_at=None))
        when = date.fromisoformat(created[:10])
        for k in range(rng.randint(1, 3)):
            by_agent = k % 2 == 1 or rng.random() < 0.3
            when += timedelta(days=rng.randint(0, 2))
            comments.append(dict(comment_id=f"CM{len(comments) + 1:05d}", ticket_id=tid,
                                 author_type="agent" if by_agent else "customer",
                                 author=rng.choice(team_agents) if by_agent else tickets[-1]["customer_email"],
                                 internal=by_agent and rng.random() < 0.3, created=when.isoformat(),
                                 body=rng.choice(["Thanks, looking into this now.", "Could you send a screenshot?",
                                                  "Escalating to second line.", "This should be fixed now.",
                                                  "Still seeing the problem this morning.", "Any update on this?"])))
        if status in ("solved", "closed"):
            tickets[-1]["solved_at"] = (when + timedelta(days=1)).isoformat()
    return [
        doc("helpdesk/agents.md", "md", "Helpdesk support teams and agents",
            "Customer support teams (billing, technical support, accounts, shipping) and the support agents in each "
            "team who are assigned helpdesk tickets.",
            [table("teams", teams, "team_id"), table("agents", agents, "agent_id")]),
        doc("helpdesk/tickets.csv", "csv", "Helpdesk support tickets",
            "Customer support tickets with subject, category (the support team), priority (low, normal, high, "
            "urgent), status (open, pending, solved, closed), channel and assigned agent.",
            [table("tickets", tickets, "ticket_id")]),
        doc("helpdesk/ticket_comments.json", "json", "Helpdesk ticket comments",
            "The comment thread of each support ticket, from the customer or an agent; internal notes are visible "
            "to agents only.", [table("comments", comments, "comment_id")]),
    ]


PROJECT_NAMES = ["Website redesign", "Mobile app v2", "Data warehouse migration", "Customer portal",
                 "Onboarding emails", "Security audit", "Billing revamp", "Help centre"]
TASK_VERBS = ["Draft", "Review", "Implement", "Test", "Design", "Document", "Fix", "Plan"]
TASK_OBJECTS = ["login page", "pricing table", "API endpoints", "email templates", "data model", "release notes",
                "search filters", "onboarding flow", "error messages", "analytics events"]


def topic_tasks(rng):
    """Team members (Markdown), projects (YAML), tasks (CSV)."""
    members = []
    for i in range(1, 13):
        f, l = person(rng)
        members.append(dict(member_id=f"MEM{i:02d}", name=f"{f} {l}", role=rng.choice(["engineer", "engineer", "designer", "product manager", "qa"]),
                            email=email(f, l, i, "team.example")))
    projects = []
    for i, name in enumerate(PROJECT_NAMES, 1):
        start = day(rng, "2024-03-01", 120)
        projects.append(dict(project_id=f"PJ{i:02d}", name=name, owner_member_id=rng.choice(members)["member_id"],
                             start_date=start, due_date=shift(start, rng.randint(45, 150)),
                             status=rng.choice(["active", "active", "on_hold", "completed"])))
    tasks = []
    for i in range(1, 161):
        p = rng.choice(projects)
        tasks.append(dict(task_id=f"TSK{i:04d}", project_id=p["project_id"],
                          title=f"{rng.choice(TASK_VERBS)} {rng.choice(TASK_OBJECTS)}",
                          assignee_member_id=rng.choice(members)["member_id"],
                          status=rng.choices(["todo", "in_progress", "done"], weights=[3, 2, 4])[0],
                          priority=rng.choice(["low", "medium", "medium", "high"]),
                          estimate_hours=rng.choice([1, 2, 3, 5, 8, 13]),
                          due_date=shift(p["start_date"], rng.randint(5, 120)), milestone=rng.choice(["M1", "M2", "M3"])))
    return [
        doc("tasks/members.md", "md", "Team members",
            "Members of the team task tracker with role and email; tasks are assigned to members and every project "
            "has an owner member.",
            [table("members", members, "member_id")]),
        doc("tasks/projects.yaml", "yaml", "Team task tracker projects",
            "Projects with an owner (team member), start date, due date and status; tasks belong to projects.",
            [table("projects", projects, "project_id")]),
        doc("tasks/tasks.csv", "csv", "Project tasks",
            "Tasks with title, project, assignee (team member), status (todo, in progress, done), priority, estimate "
            "in hours, due date and milestone.", [table("tasks", tasks, "task_id")]),
    ]


ROOM_NAMES = ["Aurora", "Basalt", "Cedar", "Delta", "Ember", "Fjord", "Granite", "Harbor", "Indigo", "Juniper",
              "Kelp", "Lagoon", "Maple", "Nimbus", "Orchid"]


def topic_calendar(rng):
    """Buildings and meeting rooms (HTML), people (Markdown), events (CSV), attendees (TSV)."""
    buildings = [dict(building_id=f"B{i}", name=n, address=address(rng))
                 for i, n in enumerate(["North Tower", "Riverside Annex", "Central Hub"], 1)]
    rooms = []
    for name in ROOM_NAMES:
        b = rng.choice(buildings)
        floor = rng.randint(1, 6)
        rooms.append(dict(room_id=f"{b['building_id']}-{floor}{len(rooms) + 1:02d}", building_id=b["building_id"],
                          name=name, floor=floor, capacity=rng.choice([4, 6, 8, 10, 12, 20]),
                          video_conferencing=rng.random() < 0.6, whiteboard=rng.random() < 0.7))
    people = []
    for i in range(1, 41):
        f, l = person(rng)
        people.append(dict(person_id=f"PPL{i:03d}", name=f"{f} {l}", team=rng.choice(["Sales", "Engineering", "Finance", "Design", "Operations"]),
                           email=email(f, l, i, "office.example")))
    events, attendees, busy = [], [], set()
    titles = ["Weekly sync", "Design review", "Sprint planning", "Quarterly review", "1:1", "Customer call",
              "Interview", "Budget review", "Retrospective", "All-hands prep"]
    while len(events) < 95:
        room = rng.choice(rooms)
        d, start = day(rng, "2024-09-02", 30), rng.randrange(8 * 2, 17 * 2)
        length = rng.choice([1, 2, 2, 3])
        slots = {(room["room_id"], d, h) for h in range(start, start + length)}
        if slots & busy:
            continue  # rooms are never double-booked
        busy |= slots
        organiser = rng.choice(people)
        eid = f"EV{len(events) + 1:04d}"
        events.append(dict(event_id=eid, room_id=room["room_id"], organiser_id=organiser["person_id"],
                           title=rng.choice(titles), date=d, start_time=f"{start // 2:02d}:{30 * (start % 2):02d}",
                           end_time=f"{(start + length) // 2:02d}:{30 * ((start + length) % 2):02d}"))
        for p in rng.sample([p for p in people if p is not organiser], rng.randint(2, 4)):
            attendees.append(dict(event_id=eid, person_id=p["person_id"],
                                  response=rng.choices(["accepted", "declined", "tentative", "needs_action"], weights=[6, 1, 1, 2])[0]))
    events.sort(key=lambda e: (e["date"], e["start_time"], e["event_id"]))
    return [
        doc("calendar/rooms.html", "html", "Office buildings and meeting rooms",
            "Buildings and the meeting rooms in them with floor, capacity and equipment (video conferencing, "
            "whiteboard), bookable through the meeting room booking calendar.",
            [table("buildings", buildings, "building_id"), table("rooms", rooms, "room_id")]),
        doc("calendar/people.md", "md", "Office people directory",
            "People in the office who organise meetings and attend calendar events in meeting rooms, with team and email.", [table("people", people, "person_id")]),
        doc("calendar/events.csv", "csv", "Meeting room bookings (calendar events)",
            "Calendar events that book a meeting room for a date and time range with an organiser.",
            [table("events", events, "event_id")]),
        doc("calendar/event_attendees.tsv", "tsv", "Meeting attendees and responses",
            "Attendees invited to each meeting (calendar event booking a meeting room) and their response: accepted, "
            "declined, tentative or needs action.",
            [table("event_attendees", attendees)]),
    ]


# ---------------------------------------------------------------------------- topics: media
WORDS_A = ["Midnight", "Golden", "Paper", "Electric", "Quiet", "Northern", "Velvet", "Broken", "Silver", "Wild",
           "Lonely", "Neon", "Hidden", "Summer", "Winter", "Ocean", "Glass", "Distant", "Burning", "Static"]
WORDS_B = ["Hearts", "Roads", "Lights", "Rivers", "Dreams", "Skies", "Echoes", "Gardens", "Letters", "Stars",
           "Tides", "Cities", "Shadows", "Mornings", "Signals"]


def title_words(rng):
    """A fictional two-word title."""
    return f"{rng.choice(WORDS_A)} {rng.choice(WORDS_B)}"


def topic_music(rng):
    """Artists (CSV), albums (JSON), tracks (CSV), playlists (YAML), playlist tracks (Markdown)."""
    genres = ["indie rock", "pop", "jazz", "electronic", "folk", "hip hop", "classical", "soul"]
    artists, names = [], set()
    while len(artists) < 25:
        name = f"The {title_words(rng)}" if rng.random() < 0.5 else " ".join(person(rng))
        if name in names:
            continue
        names.add(name)
        artists.append(dict(artist_id=f"AR{len(artists) + 1:03d}", name=name,
                            country_code=rng.choice(["US", "GB", "CA", "AU", "SE", "DE", "FR", "JP", "NG", "BR"]),
                            genre=rng.choice(genres)))
    labels = ["Lantern Records", "Blue Harbor Music", "Static Bloom", "Northside Sound", "Independent"]
    albums, tracks = [], []
    for i in range(1, 41):
        aid = f"AL{i:03d}"
        albums.append(dict(album_id=aid, artist_id=rng.choice(artists)["artist_id"], title=title_words(rng),
                           release_year=rng.randint(1995, 2024), label=rng.choice(labels)))
        for n in range(1, rng.randint(5, 9)):
            tracks.append(dict(track_id=f"TRK{len(tracks) + 1:05d}", album_id=aid, track_number=n,
                               title=title_words(rng), duration_seconds=rng.randint(130, 420), explicit=rng.random() < 0.1))
    playlists, entries = [], []
    for i in range(1, 16):
        pid = f"PLY{i:03d}"
        playlists.append(dict(playlist_id=pid, name=rng.choice(["Focus", "Road Trip", "Sunday Morning", "Workout", "Late Night", "Dinner Party"]) + f" {i}",
                              owner=" ".join(person(rng)), created=day(rng, "2023-01-01", 600), public=rng.random() < 0.7))
        for pos, t in enumerate(rng.sample(tracks, rng.randint(8, 20)), 1):
            entries.append(dict(playlist_id=pid, position=pos, track_id=t["track_id"]))
    return [
        doc("music/artists.csv", "csv", "Music streaming catalogue: artists",
            "Artists (fictional) in the music streaming catalogue with country and genre.",
            [table("artists", artists, "artist_id")]),
        doc("music/albums.json", "json", "Music streaming catalogue: albums",
            "Albums by artist with release year and record label; tracks of each album are in tracks.csv.",
            [table("albums", albums, "album_id")]),
        doc("music/tracks.csv", "csv", "Music streaming catalogue: tracks",
            "Tracks with album, track number, title, duration in seconds and explicit flag.",
            [table("tracks", tracks, "track_id")]),
        doc("music/playlists.yaml", "yaml", "Listener playlists",
            "Playlists created by listeners of the music streaming service, public or private.",
            [table("playlists", playlists, "playlist_id")]),
        doc("music/playlist_tracks.md", "md", "Playlist contents",
            "Ordered tracks in each listener playlist of the music streaming service (position 1 is the first track).", [table("playlist_tracks", entries)]),
    ]


def topic_events(rng):
    """Venues and seating sections (HTML), events (JSON), tickets (CSV)."""
    venues, sections = [], []
    for i, (name, city) in enumerate([("Riverside Arena", "Chicago"), ("Grand Lyric Theatre", "Boston"),
                                      ("Harbor Pavilion", "Seattle"), ("Old Mill Music Hall", "Denver"),
                                      ("Sunset Amphitheater", "Los Angeles"), ("Union Square Stadium", "Atlanta")], 1):
        vid = f"VN{i:02d}"
        parts = rng.sample(["Floor GA", "Lower Bowl", "Upper Bowl", "Balcony", "Stalls", "VIP Box"], rng.randint(3, 5))
        caps = []
        for k, sec in enumerate(parts):
            cap = rng.randrange(50, 3000, 50) if sec != "VIP Box" else rng.randrange(10, 60, 10)
            caps.append(cap)
            sections.append(dict(section_id=f"{vid}-{chr(65 + k)}", venue_id=vid, name=sec, seated=sec != "Floor GA",
                                 capacity=cap, base_price=money(rng, 25, 60) * (3 if sec == "VIP Box" else 1)))
        venues.append(dict(venue_id=vid, name=name, city=city, capacity=sum(caps)))
    events = []
    for i in range(1, 31):
        v = rng.choice(venues)
        cat = rng.choice(["concert", "concert", "theatre", "sports", "comedy"])
        title = {"concert": f"{title_words(rng)} Live", "theatre": f"'{title_words(rng)}' (play)",
                 "sports": f"{rng.choice(TOWNS)} vs {rng.choice(TOWNS)}", "comedy": f"{' '.join(person(rng))}: Stand-up"}[cat]
        events.append(dict(event_id=f"EVT{i:03d}", venue_id=v["venue_id"], title=title, category=cat,
                           date=day(rng, "2024-10-01", 150), doors_open=rng.choice(["18:00", "18:30", "19:00"]),
                           status=rng.choices(["on_sale", "sold_out", "cancelled"], weights=[8, 2, 1])[0]))
    tickets, codes = [], set()
    for i in range(1, 281):
        ev = rng.choice(events)
        sec = rng.choice([s for s in sections if s["venue_id"] == ev["venue_id"]])
        f, l = person(rng)
        status = "refunded" if ev["status"] == "cancelled" else rng.choices(["valid", "scanned", "transferred"], weights=[6, 3, 1])[0]
        tickets.append(dict(ticket_id=f"TKT{i:05d}", event_id=ev["event_id"], section_id=sec["section_id"],
                            seat=f"R{rng.randint(1, 30)}-S{rng.randint(1, 40)}" if sec["seated"] else None,
                            price=round(sec["base_price"] * rng.choice([1.0, 1.0, 1.25]), 2), buyer_email=email(f, l, i),
                            barcode=unique_code(rng, codes, "0123456789", 12), status=status))
    return [
        doc("events/venues.html", "html", "Event venues and seating sections",
            "Venues for concerts, theatre and sports events, with city and capacity, and the seating sections of "
            "each venue with capacity and base ticket price tier.",
            [table("venues", venues, "venue_id"), table("sections", sections, "section_id")]),
        doc("events/events.json", "json", "Events on sale",
            "Concerts, plays, comedy and sports events at venues with date, doors time and sales status.",
            [table("events", events, "event_id")]),
        doc("events/tickets.csv", "csv", "Event tickets sold",
            "Tickets sold for events: seating section, seat (empty for general admission), price, buyer, barcode "
            "and status (valid, scanned at the gate, transferred, refunded).", [table("tickets", tickets, "ticket_id")]),
    ]


# ---------------------------------------------------------------------------- topics: logistics, automotive, real estate, energy
def topic_shipping(rng):
    """Warehouses and carriers (Markdown), shipments (CSV), tracking events (TSV), stock levels (JSON)."""
    sites = [("Chicago", "US"), ("Dallas", "US"), ("Atlanta", "US"), ("Los Angeles", "US"), ("Toronto", "CA"),
             ("Frankfurt", "DE"), ("Madrid", "ES"), ("Milan", "IT")]
    warehouses = [dict(warehouse_id=f"WH{i:02d}", name=f"{city} Distribution Centre", city=city, country_code=cc)
                  for i, (city, cc) in enumerate(sites, 1)]
    carriers = [dict(carrier_id=f"CR{i}", name=n, service_levels="standard,express" + (",overnight" if i % 2 else ""))
                for i, n in enumerate(["SwiftParcel", "BlueLine Freight", "Coastal Couriers", "Metro Express", "Polar Post"], 1)]
    shipments, events = [], []
    for i in range(1, 71):
        origin = rng.choice(warehouses)
        level = rng.choice(["standard", "standard", "express", "overnight"])
        created = day(rng, "2024-08-01", 60)
        tn = f"SP{rng.randint(10 ** 9, 10 ** 10 - 1)}"
        town = rng.choice(TOWNS)
        steps = [("picked_up", origin["city"], origin["warehouse_id"])]
        hubs = [w for w in warehouses if w["country_code"] == origin["country_code"] and w is not origin]
        if hubs and rng.random() < 0.7:
            hub = rng.choice(hubs)
            steps.append(("in_transit", hub["city"], hub["warehouse_id"]))
        if rng.random() < 0.85:  # the rest are still on their way
            steps.append(("out_for_delivery", town, None))
            steps.append((rng.choices(["delivered", "exception"], weights=[9, 1])[0], town, None))
        when = date.fromisoformat(created)
        for status, loc, wh in steps:
            events.append(dict(event_id=f"TE{len(events) + 1:05d}", tracking_number=tn,
                               event_time=f"{when.isoformat()} {clock(rng, 6, 21, 1)}", status=status,
                               location=loc, warehouse_id=wh))
            when += timedelta(days=rng.randint(0, 2))
        shipments.append(dict(tracking_number=tn, carrier_id=rng.choice(carriers)["carrier_id"],
                              origin_warehouse_id=origin["warehouse_id"], recipient_name=" ".join(person(rng)),
                              dest_city=town, dest_country=origin["country_code"], weight_kg=round(rng.uniform(0.2, 25), 1),
                              service_level=level, created=created,
                              estimated_delivery=shift(created, {"standard": 5, "express": 2, "overnight": 1}[level]),
                              status=steps[-1][0]))
    goods = ["USB-C cable", "Desk lamp", "Water bottle", "Notebook A5", "Phone case", "Bluetooth speaker",
             "Yoga mat", "Coffee beans 1 kg", "Running shoes", "Backpack", "Kettle", "Toaster", "Board game",
             "LED bulb pack", "Screwdriver set", "Garden hose", "Printer paper", "Hand soap", "Umbrella", "Headphones"]
    items = [dict(sku=f"SKU-{10001 + k}", description=g, unit_weight_kg=round(rng.uniform(0.1, 6), 2),
                  reorder_point=rng.randrange(10, 80, 5)) for k, g in enumerate(goods)]
    levels = []
    for it in items:
        for w in rng.sample(warehouses, rng.randint(3, 6)):
            levels.append(dict(warehouse_id=w["warehouse_id"], sku=it["sku"], on_hand=rng.randint(0, 400),
                               reserved=rng.randint(0, 20),
                               bin=f"{rng.choice('ABCDEF')}-{rng.randint(1, 20):02d}-{rng.randint(1, 5)}"))
    return [
        doc("shipping/network.md", "md", "Parcel network: warehouses and carriers",
            "Distribution warehouses (depots) of the parcel delivery network with city and country, and the carriers "
            "with the service levels they offer.",
            [table("warehouses", warehouses, "warehouse_id"), table("carriers", carriers, "carrier_id")]),
        doc("shipping/shipments.csv", "csv", "Parcel shipments",
            "Shipments with tracking number, carrier, origin warehouse, recipient, destination, weight, service level "
            "(standard, express, overnight), estimated delivery date and latest status.",
            [table("shipments", shipments, "tracking_number")]),
        doc("shipping/tracking_events.tsv", "tsv", "Parcel tracking events",
            "Tracking scans for each shipment in time order: picked up, in transit at a warehouse, out for delivery, "
            "delivered or exception, with location and warehouse.", [table("tracking_events", events, "event_id")]),
        doc("shipping/stock_levels.json", "json", "Warehouse inventory: stock items and stock levels",
            "Stock items (SKUs) with unit weight and reorder point, and stock levels per warehouse with quantity on "
            "hand, reserved quantity and bin location.",
            [table("stock_items", items, "sku"), table("stock_levels", levels)]),
    ]


FLEET_MODELS = [("Ford", "Transit", "diesel"), ("Ford", "Focus", "petrol"), ("Toyota", "Corolla", "hybrid"),
                ("Toyota", "Hilux", "diesel"), ("Volkswagen", "Golf", "petrol"), ("Volkswagen", "Crafter", "diesel"),
                ("Renault", "Kangoo", "diesel"), ("Mercedes-Benz", "Sprinter", "diesel"), ("Nissan", "Leaf", "electric"),
                ("Tesla", "Model 3", "electric"), ("Skoda", "Octavia", "petrol"), ("Peugeot", "Partner", "diesel")]
FLEET_PARTS = [("Engine oil 5W-30 (1 L)", 9.5), ("Oil filter", 12.0), ("Air filter", 18.0), ("Cabin filter", 15.0),
               ("Brake pads (front set)", 55.0), ("Brake discs (pair)", 90.0), ("Wiper blades (pair)", 22.0),
               ("Tyre 205/55 R16", 85.0), ("Spark plug", 8.5), ("Coolant (1 L)", 7.0), ("AdBlue (10 L)", 16.0),
               ("Battery 12V 70Ah", 120.0), ("Headlight bulb H7", 9.0), ("Timing belt kit", 160.0), ("Shock absorber", 75.0)]
SERVICE_PARTS = {"oil change": [0, 1], "air filter replacement": [2, 3], "brake pads": [4], "brake discs and pads": [4, 5],
                 "tyre replacement": [7], "annual inspection": [6, 12], "battery replacement": [11],
                 "timing belt": [13, 9], "suspension repair": [14]}


def part_quantity(rng, k):
    """How many of fleet part k one service uses (litres of oil, a pair or set of tyres, else one)."""
    if k == 0:
        return rng.randint(4, 6)
    return rng.choice([2, 4]) if k == 7 else 1


def topic_fleet(rng):
    """Drivers (Markdown), vehicles (CSV), parts catalogue (YAML), service records with nested parts (JSON)."""
    drivers = []
    for i in range(1, 21):
        f, l = person(rng)
        drivers.append(dict(driver_id=f"DRV{i:02d}", name=f"{f} {l}", licence_class=rng.choice(["B", "B", "C1", "C"]),
                            hired=day(rng, "2015-01-01", 3000)))
    parts = [dict(part_number=f"PT-{1001 + k}", description=d, unit_price=p) for k, (d, p) in enumerate(FLEET_PARTS)]
    vehicles, plates = [], set()
    for i in range(1, 31):
        make, model, fuel = rng.choice(FLEET_MODELS)
        plate = unique_code(rng, plates, "ABCDEFGHJKLMNPRSTVWXYZ", 2) + f"{rng.randint(10, 99)} " + \
            "".join(rng.choice("ABCDEFGHJKLMNPRSTVWXYZ") for _ in range(3))
        vehicles.append(dict(vehicle_id=f"VH{i:03d}", plate=plate, make=make, model=model,
                             year=rng.randint(2016, 2024), fuel=fuel, odometer_km=0,
                             driver_id=rng.choice(drivers)["driver_id"] if rng.random() < 0.85 else None,
                             status="active"))
    services = []
    for v in vehicles:
        km, when = rng.randint(5000, 40000), date.fromisoformat(day(rng, "2022-01-01", 200))
        for _ in range(rng.randint(2, 6)):
            kind = rng.choice(sorted(SERVICE_PARTS))
            if v["fuel"] == "electric" and kind in ("oil change", "timing belt"):
                kind = "tyre replacement"
            used = [{"part_number": parts[k]["part_number"], "quantity": part_quantity(rng, k)}
                    for k in SERVICE_PARTS[kind]]
            cost = round(sum(parts[k]["unit_price"] * u["quantity"] for k, u in zip(SERVICE_PARTS[kind], used))
                         + money(rng, 40, 220), 2)  # parts plus labour
            services.append(dict(service_id="", vehicle_id=v["vehicle_id"], service_date=when.isoformat(),
                                 odometer_km=km, service_type=kind, cost=cost, workshop=rng.choice(["Depot workshop", "Main dealer", "Quick Fit Centre"]),
                                 parts=used))
            km += rng.randint(4000, 20000)
            when += timedelta(days=rng.randint(60, 240))
        v["odometer_km"] = km
        if rng.random() < 0.1:
            v["status"] = "out_of_service"
    services.sort(key=lambda s: (s["service_date"], s["vehicle_id"]))
    for k, s in enumerate(services, 1):
        s["service_id"] = f"SR{k:04d}"
    return [
        doc("fleet/drivers.md", "md", "Fleet drivers",
            "Drivers of the company vehicle fleet with licence class and hire date; fleet vehicles have an assigned driver.",
            [table("drivers", drivers, "driver_id")]),
        doc("fleet/vehicles.csv", "csv", "Fleet vehicles",
            "Company fleet vehicles with licence plate, make, model, year, fuel, odometer in km, assigned driver and "
            "status (active or out of service).", [table("vehicles", vehicles, "vehicle_id")]),
        doc("fleet/parts.yaml", "yaml", "Fleet maintenance parts catalogue",
            "Parts used in vehicle maintenance and service records, with part number and unit price.",
            [table("parts", parts, "part_number")]),
        doc("fleet/service_records.json", "json", "Vehicle service records",
            "Maintenance history: each service record has the vehicle, date, odometer reading, service type (oil "
            "change, brake pads, tyre replacement, inspection, ...), cost, workshop and a nested list of parts used.",
            [table("service_records", services, "service_id")]),
    ]


def topic_real_estate(rng):
    """Offices and agents (Markdown), listings (HTML), viewings (CSV), offers (JSON)."""
    offices = [dict(office_id=f"OF{i}", name=f"{t} Homes", city=t) for i, t in enumerate(rng.sample(TOWNS, 3), 1)]
    agents = []
    for i in range(1, 13):
        f, l = person(rng)
        agents.append(dict(agent_id=f"AGT{i:02d}", name=f"{f} {l}", office_id=rng.choice(offices)["office_id"],
                           phone=f"+1-555-03{rng.randint(0, 99):02d}"))
    listings = []
    for i in range(1, 61):
        kind = rng.choice(["house", "apartment", "townhouse"])
        beds = rng.randint(1, 3) if kind == "apartment" else rng.randint(2, 5)
        area = rng.randint(45, 110) if kind == "apartment" else rng.randint(80, 260)
        listings.append(dict(property_id=f"PROP{i:03d}", address=address(rng), city=rng.choice(TOWNS), property_type=kind,
                             bedrooms=beds, bathrooms=max(1, beds - rng.randint(0, 2)), floor_area_m2=area,
                             asking_price=round(area * rng.uniform(2500, 5200), -3), agent_id=rng.choice(agents)["agent_id"],
                             listed_on=day(rng, "2024-03-01", 150), status="active"))
    offers = []
    for i in range(1, 51):
        p = rng.choice(listings)
        offers.append(dict(offer_id=f"OFR{i:03d}", property_id=p["property_id"], buyer_name=" ".join(person(rng)),
                           amount=round(p["asking_price"] * rng.uniform(0.9, 1.02), -2),
                           conditions=rng.choice(["subject to survey", "subject to mortgage approval", "cash buyer", "chain-free"]),
                           status="pending", submitted=shift(p["listed_on"], rng.randint(5, 60))))
    for p in listings:  # at most one accepted offer per property
        mine = [o for o in offers if o["property_id"] == p["property_id"]]
        for o in mine:
            o["status"] = rng.choice(["rejected", "countered", "pending"])
        if mine and rng.random() < 0.5:
            rng.choice(mine)["status"] = "accepted"
            p["status"] = rng.choice(["under_offer", "sold"])
    viewings = []
    for i in range(1, 151):
        p = rng.choice(listings)
        viewings.append(dict(viewing_id=f"VW{i:04d}", property_id=p["property_id"], buyer_name=" ".join(person(rng)),
                             date=shift(p["listed_on"], rng.randint(1, 45)), time=clock(rng, 9, 19, 30),
                             agent_id=p["agent_id"], feedback=rng.choice(["liked the garden", "too small", "good location",
                                                                          "needs renovation", "will make an offer", None])))
    return [
        doc("real_estate/agents.md", "md", "Real estate offices and listing agents",
            "Brokerage offices and the listing agents who work at each office.",
            [table("offices", offices, "office_id"), table("agents", agents, "agent_id")]),
        doc("real_estate/listings.html", "html", "Property listings for sale",
            "Properties for sale (house, apartment, townhouse) with address, city, bedrooms, bathrooms, floor area in "
            "square metres, asking price, listing agent and status (active, under offer, sold).",
            [table("listings", listings, "property_id")]),
        doc("real_estate/viewings.csv", "csv", "Property viewings",
            "Buyer viewings booked for listed properties with date, time slot, agent and feedback.",
            [table("viewings", viewings, "viewing_id")]),
        doc("real_estate/offers.json", "json", "Offers on properties",
            "Buyers' offers on listed properties with offer amount, conditions and status (pending, accepted, "
            "rejected, countered).", [table("offers", offers, "offer_id")]),
    ]


def topic_energy(rng):
    """Tariffs (Markdown), customers (CSV), smart meters (JSON), monthly meter readings (TSV)."""
    tariffs = [dict(tariff_id="TF-STD", name="Standard variable", standing_charge_per_day=0.53, unit_rate_per_kwh=0.245, off_peak_rate_per_kwh=None),
               dict(tariff_id="TF-E7", name="Day and night", standing_charge_per_day=0.55, unit_rate_per_kwh=0.29, off_peak_rate_per_kwh=0.15),
               dict(tariff_id="TF-GREEN", name="Green renewable", standing_charge_per_day=0.50, unit_rate_per_kwh=0.26, off_peak_rate_per_kwh=None),
               dict(tariff_id="TF-FIX24", name="Fixed 24 months", standing_charge_per_day=0.48, unit_rate_per_kwh=0.235, off_peak_rate_per_kwh=None),
               dict(tariff_id="TF-EV", name="Electric vehicle night", standing_charge_per_day=0.55, unit_rate_per_kwh=0.30, off_peak_rate_per_kwh=0.08)]
    for t in tariffs:
        t["currency"] = "EUR"
    customers, meters, readings = [], [], []
    for i in range(1, 41):
        f, l = person(rng)
        tariff = rng.choice(tariffs)
        cid = f"EC{i:04d}"
        customers.append(dict(customer_id=cid, name=f"{f} {l}", address=f"{address(rng)}, {rng.choice(TOWNS)}",
                              tariff_id=tariff["tariff_id"], supply_start=day(rng, "2019-01-01", 1800)))
        for k in range(2 if tariff["tariff_id"] == "TF-EV" and rng.random() < 0.7 else 1):
            meters.append(dict(meter_id=f"MTR{len(meters) + 1:05d}", customer_id=cid,
                               meter_type="smart_dual_rate" if tariff["off_peak_rate_per_kwh"] else "smart_single_rate",
                               serial=f"{rng.randint(10, 99)}P{rng.randint(1000000, 9999999)}",
                               installed=day(rng, "2018-01-01", 1500)))
    month_ends = ["2024-01-31", "2024-02-29", "2024-03-31", "2024-04-30", "2024-05-31", "2024-06-30"]
    for m in meters:
        register = rng.randint(1000, 60000)
        for d in month_ends:
            register += rng.randint(120, 650)
            readings.append(dict(reading_id=f"RD{len(readings) + 1:05d}", meter_id=m["meter_id"], reading_date=d,
                                 register_kwh=register, estimated=rng.random() < 0.08))
    return [
        doc("energy/tariffs.md", "md", "Electricity tariffs",
            "Electricity tariffs with standing charge per day and unit rate per kWh (kilowatt-hour), plus an off-peak "
            "unit rate for dual-rate tariffs.", [table("tariffs", tariffs, "tariff_id")]),
        doc("energy/customers.csv", "csv", "Electricity supply customers",
            "Customers of the electricity retailer with supply address, tariff and supply start date.",
            [table("customers", customers, "customer_id")]),
        doc("energy/meters.json", "json", "Smart meters",
            "Smart electricity meters at each customer's supply point with meter type, serial and install date.",
            [table("meters", meters, "meter_id")]),
        doc("energy/meter_readings.tsv", "tsv", "Monthly smart meter readings",
            "Month-end register readings in kWh per smart meter; consumption for a billing period is the difference "
            "of two readings; estimated readings are flagged.", [table("meter_readings", readings, "reading_id")]),
    ]


# ---------------------------------------------------------------------------- topics: agriculture, legal, hr, sports
FIELD_NAMES = ["Long Meadow", "Church Field", "Mill Acre", "Top Paddock", "River Piece", "Windy Hill",
               "Old Orchard", "Ten Acre", "Lower Marsh", "Stony Bank", "Well Close", "Barn Field", "Ash Ground", "Far Lea"]
YIELD_T_HA = {"Poaceae": (4, 10), "Fabaceae": (1.5, 4), "Solanaceae": (25, 50), "Asteraceae": (2, 30),
              "Brassicaceae": (3, 40), "Amaranthaceae": (50, 80), "Apiaceae": (30, 60), "Amaryllidaceae": (30, 55),
              "Malvaceae": (1, 2.5)}


def topic_farm(rng):
    """Crops (YAML facts), fields (CSV), plantings by season (Markdown), harvests (JSON)."""
    crops = [dict(crop_id=f"CRP{i:02d}", common_name=c, scientific_name=s, family=f) for i, (c, s, f) in enumerate(CROPS, 1)]
    family = {c["crop_id"]: c["family"] for c in crops}
    fields = [dict(field_id=f"F{i:02d}", name=n, area_ha=round(rng.uniform(1.5, 32), 1),
                   soil_type=rng.choice(["clay loam", "sandy loam", "silt loam", "chalk", "peat"]))
              for i, n in enumerate(FIELD_NAMES, 1)]
    field_crops = [c for c in crops if c["common_name"] not in ("rice", "cotton", "chickpea", "sorghum")]
    plantings, harvests, previous = [], [], {}
    for season in (2022, 2023, 2024):
        for f in fields:
            options = [c for c in field_crops if family[c["crop_id"]] != previous.get(f["field_id"])]
            crop = rng.choice(options)  # rotation: never the same plant family twice in a row
            previous[f["field_id"]] = crop["family"]
            pid = f"PLT{len(plantings) + 1:03d}"
            sown = day(rng, f"{season}-03-10", 60)
            plantings.append(dict(planting_id=pid, field_id=f["field_id"], crop_id=crop["crop_id"], season=season,
                                  sowing_date=sown, variety=f"{rng.choice(WORDS_A)} {rng.randint(1, 9)}"))
            if season < 2024 or rng.random() < 0.5:
                lo, hi = YIELD_T_HA[crop["family"]]
                harvests.append(dict(harvest_id=f"HV{len(harvests) + 1:03d}", planting_id=pid,
                                     harvest_date=shift(sown, rng.randint(100, 170)),
                                     yield_tonnes=round(f["area_ha"] * rng.uniform(lo, hi), 1),
                                     moisture_percent=round(rng.uniform(12, 20), 1)))
    return [
        doc("farm/crops.yaml", "yaml", "Crop reference for farm crop planning",
            "Common field crops with scientific name and plant family; crop rotation planning avoids growing the same "
            "plant family in a field in consecutive seasons.", [table("crops", crops, "crop_id")],
            source="facts: crop scientific names and plant families"),
        doc("farm/fields.csv", "csv", "Farm fields", "Fields of the mixed farm with area in hectares and soil type.",
            [table("fields", fields, "field_id")]),
        doc("farm/plantings.md", "md", "Crop plantings by season",
            "Planned and sown plantings: which crop and variety was sown in which field in each season, with sowing date.",
            [table("plantings", plantings, "planting_id")]),
        doc("farm/harvests.json", "json", "Harvest records",
            "Harvests of plantings with harvest date, yield in tonnes and grain or crop moisture percent.",
            [table("harvests", harvests, "harvest_id")]),
    ]


def topic_legal(rng):
    """Courts and attorneys (Markdown), clients (CSV), cases with attorneys and hearings (SQL dump)."""
    courts = [dict(court_id=f"CT{i:02d}", name=f"{t} {lvl.title()} Court", city=t, level=lvl)
              for i, (t, lvl) in enumerate(zip(rng.sample(TOWNS, 6), ["county", "county", "district", "district", "family", "appeals"]), 1)]
    areas = ["litigation", "employment", "family", "real estate", "corporate"]
    attorneys = []
    for i in range(1, 13):
        f, l = person(rng)
        attorneys.append(dict(attorney_id=f"ATT{i:02d}", name=f"{f} {l}", practice_area=rng.choice(areas),
                              bar_number=f"BAR{rng.randint(100000, 999999)}", admitted_year=rng.randint(1995, 2021)))
    used, clients = set(), []
    for i in range(1, 41):
        if rng.random() < 0.4:
            name, kind = company(rng, used), "company"
        else:
            name, kind = " ".join(person(rng)), "individual"
        clients.append(dict(client_id=f"LC{i:03d}", name=name, client_type=kind,
                            email=f"contact{i}@client.example", client_since=day(rng, "2015-01-01", 3000)))
    cases, staffing, hearings = [], [], []
    for i in range(1, 61):
        area = rng.choice(areas)
        court = rng.choice([c for c in courts if (c["level"] == "family") == (area == "family")])
        cid = f"CASE-{i:04d}"
        opened = day(rng, "2022-01-01", 900)
        cases.append(dict(case_id=cid, client_id=rng.choice(clients)["client_id"], practice_area=area,
                          court_id=court["court_id"], opposing_party=" ".join(person(rng)) if rng.random() < 0.6 else company(rng, used),
                          opened_on=opened, status=rng.choices(["open", "settled", "closed"], weights=[5, 2, 3])[0]))
        team = rng.sample([a for a in attorneys if a["practice_area"] == area] or attorneys, 1) + rng.sample(attorneys, 1)
        for k, a in enumerate(dict.fromkeys(x["attorney_id"] for x in team)):
            staffing.append(dict(case_id=cid, attorney_id=a, role="lead" if k == 0 else "associate"))
        when = opened
        for _ in range(rng.randint(0, 4)):
            when = shift(when, rng.randint(20, 120))
            hearings.append(dict(hearing_id=f"HR{len(hearings) + 1:04d}", case_id=cid, court_id=court["court_id"],
                                 hearing_date=when, hearing_type=rng.choice(["motion", "status conference", "trial", "mediation"]),
                                 outcome=rng.choice(["continued", "granted", "denied", "settled"]) if when < "2024-10-01" else None))
    return [
        doc("legal/firm.md", "md", "Law firm attorneys and courts",
            "Attorneys of the law firm with practice area, bar number and year admitted, and the courts where the "
            "firm's cases are heard.", [table("attorneys", attorneys, "attorney_id"), table("courts", courts, "court_id")]),
        doc("legal/clients.csv", "csv", "Law firm clients",
            "Clients (individuals and companies) who retain the law firm; names are synthetic.",
            [table("clients", clients, "client_id")]),
        doc("legal/cases.sql", "sql", "Case management dump: cases, case attorneys and hearings",
            "Client cases with case number, practice area, court, opposing party and status; the attorneys assigned "
            "to each case with their role; and hearings scheduled in court with date, type and outcome.",
            [table("cases", cases, "case_id"),
             table("case_attorneys", staffing, None, [("case_id", "cases", "case_id")]),
             table("hearings", hearings, "hearing_id", [("case_id", "cases", "case_id")])]),
    ]


HR_DEPTS = [("DEP01", "Executive", "CC-100"), ("DEP02", "Engineering", "CC-200"), ("DEP03", "Sales", "CC-300"),
            ("DEP04", "Finance", "CC-400"), ("DEP05", "People", "CC-500"), ("DEP06", "Operations", "CC-600"),
            ("DEP07", "Marketing", "CC-700")]
HR_TITLES = {"DEP02": ["Software Engineer", "Senior Software Engineer", "QA Engineer"], "DEP03": ["Account Executive", "Sales Development Rep"],
             "DEP04": ["Accountant", "Financial Analyst"], "DEP05": ["HR Generalist", "Recruiter"],
             "DEP06": ["Operations Analyst", "Office Manager"], "DEP07": ["Marketing Manager", "Content Writer"]}
LEAVE_DAYS = {"annual": 25, "sick": 10, "parental": 20}


def topic_hr(rng):
    """Departments (Markdown), employees (CSV), leave balances (YAML), leave requests (JSON)."""
    offices = ["London", "Berlin", "Toronto", "Singapore"]
    employees = []

    def hire(dept, title, manager):
        """Add one employee and return their id."""
        f, l = person(rng)
        eid = f"E{len(employees) + 1:04d}"
        employees.append(dict(employee_id=eid, first_name=f, last_name=l, job_title=title, department_id=dept,
                              manager_id=manager, office=rng.choice(offices), hire_date=day(rng, "2012-01-01", 4300),
                              email=email(f, l, len(employees) + 1, "corp.example")))
        return eid

    ceo = hire("DEP01", "Chief Executive Officer", None)
    departments = [dict(department_id="DEP01", name="Executive", cost_centre="CC-100", head_employee_id=ceo)]
    for dep, name, cc in HR_DEPTS[1:]:
        head = hire(dep, f"Head of {name}", ceo)
        departments.append(dict(department_id=dep, name=name, cost_centre=cc, head_employee_id=head))
        leads = [hire(dep, f"{name} Team Lead", head) for _ in range(rng.randint(1, 2))]
        for _ in range(rng.randint(8, 12)):
            hire(dep, rng.choice(HR_TITLES[dep]), rng.choice(leads))
    manager_of = {e["employee_id"]: e["manager_id"] for e in employees}
    used = {(e["employee_id"], t): 0 for e in employees for t in LEAVE_DAYS}
    requests = []
    staff = [e for e in employees if e["manager_id"]]
    for i in range(1, 151):
        e = rng.choice(staff)
        kind = rng.choices(list(LEAVE_DAYS), weights=[6, 3, 1])[0]
        start = date.fromisoformat(day(rng, "2024-01-08", 330))
        days = rng.randint(1, 10 if kind != "parental" else 20)
        status = rng.choices(["approved", "pending", "rejected", "cancelled"], weights=[6, 2, 1, 1])[0]
        key = (e["employee_id"], kind)
        if status == "approved" and used[key] + days > LEAVE_DAYS[kind]:
            status = "rejected"  # exceeds the remaining balance
        if status == "approved":
            used[key] += days
        requests.append(dict(request_id=f"LR{i:04d}", employee_id=e["employee_id"], leave_type=kind,
                             start_date=start.isoformat(), end_date=(start + timedelta(days=days - 1)).isoformat(),
                             days=days, status=status, approver_id=manager_of[e["employee_id"]]))
    balances = []
    for e in employees:
        for kind, entitled in LEAVE_DAYS.items():
            if kind == "parental" and used[(e["employee_id"], kind)] == 0:
                continue
            balances.append(dict(employee_id=e["employee_id"], leave_type=kind, year=2024, entitlement_days=entitled,
                                 used_days=used[(e["employee_id"], kind)]))
    return [
        doc("hr/departments.md", "md", "Company departments",
            "Departments of the company with cost centre and department head (an employee id); employees belong to "
            "departments, and team leave is listed by department.",
            [table("departments", departments, "department_id")]),
        doc("hr/employees.csv", "csv", "Employee directory",
            "Employees with employee id, name, job title, department, manager (another employee, empty for the chief "
            "executive), office location, hire date and email. Names are synthetic.",
            [table("employees", employees, "employee_id")]),
        doc("hr/leave_balances.yaml", "yaml", "Employee leave balances",
            "Annual leave, sick leave and parental leave balances per employee for 2024: entitlement days and days used "
            "by approved leave requests.", [table("leave_balances", balances)]),
        doc("hr/leave_requests.json", "json", "Employee leave requests",
            "Leave requests (time off) with leave type, start and end dates, days, status (approved, pending, "
            "rejected, cancelled) and approving manager.", [table("leave_requests", requests, "request_id")]),
    ]


def round_robin(teams):
    """Double round-robin fixtures by the circle method: [(round, home, away)]."""
    ids = list(teams)
    rounds, n = [], len(ids)
    for r in range(n - 1):
        pairs = [(ids[k], ids[n - 1 - k]) for k in range(n // 2)]
        rounds.append([(a, b) if r % 2 == 0 else (b, a) for a, b in pairs])
        ids = [ids[0]] + [ids[-1]] + ids[1:-1]
    first = [(r + 1, a, b) for r, rnd in enumerate(rounds) for a, b in rnd]
    return first + [(r + n - 1, b, a) for r, a, b in first]


def topic_sports(rng):
    """Teams (HTML), players (CSV), matches (JSON), goals (TSV); standings follow from the results."""
    teams = []
    for i, town in enumerate(sorted(rng.sample(TOWNS, 10)), 1):
        teams.append(dict(team_id=f"TM{i:02d}", name=f"{town} {rng.choice(['Rovers', 'United', 'Athletic', 'Wanderers', 'City'])}",
                          home_ground=f"{rng.choice(STREETS).split()[0]} Park", coach=" ".join(person(rng))))
    players = []
    for t in teams:
        for num, pos in zip(rng.sample(range(1, 31), 16), ["GK", "GK"] + ["DF"] * 5 + ["MF"] * 5 + ["FW"] * 4):
            players.append(dict(player_id=f"PLR{len(players) + 1:03d}", team_id=t["team_id"], name=" ".join(person(rng)),
                                shirt_number=num, position=pos, birth_date=day(rng, "1988-01-01", 365 * 16)))
    matches, goals = [], []
    for k, (rnd, home, away) in enumerate(round_robin([t["team_id"] for t in teams]), 1):
        mid = f"MT{k:03d}"
        score = {home: rng.choices(range(6), weights=[5, 8, 6, 3, 1, 1])[0],
                 away: rng.choices(range(5), weights=[6, 8, 5, 2, 1])[0]}
        matches.append(dict(match_id=mid, round=rnd, date=shift("2024-03-02", 7 * (rnd - 1)), home_team_id=home,
                            away_team_id=away, home_goals=score[home], away_goals=score[away]))
        for side in (home, away):
            shooters = [p for p in players if p["team_id"] == side and p["position"] != "GK"]
            for minute in sorted(rng.sample(range(1, 91), score[side])):
                goals.append(dict(goal_id=f"GL{len(goals) + 1:04d}", match_id=mid, team_id=side,
                                  player_id=rng.choice(shooters)["player_id"], minute=minute))
    return [
        doc("sports/teams.html", "html", "Amateur football league teams",
            "Teams of the amateur football (soccer) league season with home ground and coach. League standings "
            "(played, won, drawn, lost, goals for and against, points: three for a win, one for a draw) follow "
            "from the match results.", [table("teams", teams, "team_id")]),
        doc("sports/players.csv", "csv", "League player registrations",
            "Players registered to a league team for the season with shirt number, position (GK, DF, MF, FW) and "
            "birth date; goals record the scoring player.",
            [table("players", players, "player_id")]),
        doc("sports/matches.json", "json", "League fixtures and results",
            "Double round-robin fixtures: each match pairs a home team and an away team on a date, with the final score.",
            [table("matches", matches, "match_id")]),
        doc("sports/goals.tsv", "tsv", "Goals scored",
            "Every goal in the league with match, scoring team, scorer (player) and minute; top scorers come from here.",
            [table("goals", goals, "goal_id")]),
    ]


# ---------------------------------------------------------------------------- topics: telecom, nonprofit, gaming, insurance, manufacturing
def topic_telecom(rng):
    """Mobile plans (Markdown), subscribers (CSV), subscriptions (JSON), usage records (CSV)."""
    plans = [dict(plan_id=p, name=n, data_gb=d, voice_minutes=m, sms=s, monthly_price=pr, currency="GBP")
             for p, n, d, m, s, pr in [("PLN-S", "Starter", 2, 100, 100, 6.0), ("PLN-M", "Essential", 10, 500, 500, 10.0),
                                       ("PLN-L", "Plus", 30, 1500, 1500, 15.0), ("PLN-XL", "Max", 100, 3000, 3000, 22.0),
                                       ("PLN-D5", "Data only 5", 5, 0, 0, 7.5), ("PLN-D50", "Data only 50", 50, 0, 0, 16.0),
                                       ("PLN-T", "Traveller", 25, 1000, 1000, 18.0), ("PLN-K", "Kids", 3, 200, 300, 5.0)]]
    subscribers, numbers = [], set()
    for i in range(1, 61):
        num = unique_code(rng, numbers, "0123456789", 3)
        subscribers.append(dict(subscriber_id=f"SUB{i:04d}", msisdn=f"+447700900{num}",
                                sim_serial=f"8944{rng.randint(10 ** 14, 10 ** 15 - 1)}", home_country="GB",
                                status=rng.choices(["active", "suspended"], weights=[12, 1])[0],
                                activated=day(rng, "2019-01-01", 1800)))
    subscriptions = []
    for s in subscribers:
        start = s["activated"]
        for k in range(rng.choice([1, 1, 2])):
            end = shift(start, rng.randint(200, 700)) if k == 0 and rng.random() < 0.3 else None
            subscriptions.append(dict(subscription_id=f"SN{len(subscriptions) + 1:04d}", subscriber_id=s["subscriber_id"],
                                      plan_id=rng.choice(plans)["plan_id"], start_date=start, end_date=end))
            if end is None:
                break
            start = shift(end, 1)
    roaming = ["FR", "ES", "IT", "DE", "PT", "GR", "US", "TR", "NL", "IE"]
    usage = []
    for i in range(1, 281):
        kind = rng.choice(["data", "voice", "sms"])
        volume, unit = {"data": (rng.randint(5, 2500), "MB"), "voice": (rng.randint(1, 60), "min"),
                        "sms": (rng.randint(1, 5), "messages")}[kind]
        usage.append(dict(usage_id=f"US{i:05d}", subscriber_id=rng.choice(subscribers)["subscriber_id"],
                          usage_date=day(rng, "2024-07-01", 92), kind=kind, volume=volume, unit=unit,
                          roaming_country=rng.choice(roaming) if rng.random() < 0.15 else None))
    return [
        doc("telecom/plans.md", "md", "Mobile plans", "Mobile network operator plans: monthly data allowance in "
            "gigabytes, voice minutes, SMS and monthly price.", [table("plans", plans, "plan_id")]),
        doc("telecom/subscribers.csv", "csv", "Mobile subscribers",
            "Subscribers with phone number (MSISDN, fictional +44 7700 900 range), SIM serial (ICCID), home country "
            "and line status.", [table("subscribers", subscribers, "subscriber_id")]),
        doc("telecom/subscriptions.json", "json", "Plan subscriptions",
            "Which plan each mobile subscriber is on, from a start date until an end date (empty for the current plan).",
            [table("subscriptions", subscriptions, "subscription_id")]),
        doc("telecom/usage_records.csv", "csv", "Mobile usage records",
            "Data sessions (MB), voice calls (minutes) and SMS per subscriber and day, with the roaming country code "
            "when used abroad.", [table("usage_records", usage, "usage_id")]),
    ]


CAMPAIGNS = ["Winter Shelter Appeal", "School Meals Fund", "Clean Water Wells", "Library Books Drive",
             "Emergency Relief", "Tree Planting Day", "Youth Sports Kits", "Annual Giving"]
OPPORTUNITIES = [("Food bank sorting", "Warehouse, Mill Lane"), ("Homework tutoring", "Community Library"),
                 ("Event stewarding", "Riverside Park"), ("Meal delivery driving", "Kitchen, High Street"),
                 ("Charity shop assistant", "Market Square shop"), ("Tree planting", "Greenvale Woods")]


def topic_nonprofit(rng):
    """Donors (CSV), campaigns (Markdown), donations (JSON array), volunteers (YAML), shifts and sign-ups (Markdown)."""
    donors = []
    for i in range(1, 61):
        f, l = person(rng)
        donors.append(dict(donor_id=f"DN{i:04d}", name=f"{f} {l}", email=email(f, l, i), city=rng.choice(TOWNS),
                           preferred_contact=rng.choice(["email", "post", "phone", "none"]),
                           first_gift=day(rng, "2015-01-01", 3000)))
    campaigns = []
    for i, name in enumerate(CAMPAIGNS, 1):
        start = day(rng, "2023-09-01", 300)
        campaigns.append(dict(campaign_id=f"CMP-{i:02d}", name=name, goal_amount=float(rng.randrange(5000, 100000, 2500)),
                              start_date=start, end_date=shift(start, rng.randint(30, 120))))
    donations = []
    for i in range(1, 201):
        c = rng.choice(campaigns)
        span = (date.fromisoformat(c["end_date"]) - date.fromisoformat(c["start_date"])).days
        donations.append(dict(donation_id=f"DON{i:05d}", donor_id=rng.choice(donors)["donor_id"], campaign_id=c["campaign_id"],
                              amount=float(rng.choice([5, 10, 20, 25, 50, 100, 250, 500])), currency="USD",
                              donated_on=shift(c["start_date"], rng.randint(0, span)),
                              method=rng.choice(["card", "bank_transfer", "cheque", "paypal"]),
                              tax_receipt_issued=rng.random() < 0.7, recurring=rng.random() < 0.2))
    donations.sort(key=lambda d: (d["donated_on"], d["donation_id"]))
    volunteers = []
    for i in range(1, 41):
        f, l = person(rng)
        volunteers.append(dict(volunteer_id=f"VOL{i:03d}", name=f"{f} {l}", email=email(f, l, i, "volunteer.example"),
                               skills=";".join(sorted(rng.sample(["driving", "cooking", "tutoring", "first aid", "lifting", "languages"], 2))),
                               joined=day(rng, "2020-01-01", 1500)))
    opps = [dict(opportunity_id=f"OPP{i}", title=t, location=loc, campaign_id=rng.choice(campaigns)["campaign_id"])
            for i, (t, loc) in enumerate(OPPORTUNITIES, 1)]
    shifts, signups = [], []
    for k in range(1, 31):
        o = rng.choice(opps)
        start = rng.choice([9, 10, 13, 14, 17])
        needed = rng.randint(2, 8)
        sid = f"SH{k:03d}"
        when = day(rng, "2024-09-01", 60)
        shifts.append(dict(shift_id=sid, opportunity_id=o["opportunity_id"], date=when, start_time=f"{start:02d}:00",
                           end_time=f"{start + 3:02d}:00", volunteers_needed=needed))
        for v in rng.sample(volunteers, rng.randint(1, needed)):
            status = rng.choices(["signed_up", "attended", "no_show"], weights=[3, 6, 1])[0]
            signups.append(dict(signup_id=f"SU{len(signups) + 1:04d}", shift_id=sid, volunteer_id=v["volunteer_id"],
                                status=status, hours_logged=3 if status == "attended" else 0))
    return [
        doc("nonprofit/donors.csv", "csv", "Charity donors",
            "Donors to the charity with contact details, communication preference and date of first gift.",
            [table("donors", donors, "donor_id")]),
        doc("nonprofit/campaigns.md", "md", "Fundraising campaigns",
            "Fundraising campaigns (appeals) with goal amount, start date and end date; donations count toward a campaign goal.",
            [table("campaigns", campaigns, "campaign_id")]),
        doc("nonprofit/donations.json", "jsonarr", "", "", [table("donations", donations, "donation_id")]),
        doc("nonprofit/volunteers.yaml", "yaml", "Registered volunteers",
            "Volunteers registered with the nonprofit, with skills (semicolon separated) and join date.",
            [table("volunteers", volunteers, "volunteer_id")]),
        doc("nonprofit/volunteer_shifts.md", "md", "Volunteer opportunities, shifts and sign-ups",
            "Volunteer opportunities (food sorting, tutoring, event stewarding, ...) with the fundraising campaign each "
            "supports, the shifts for each opportunity with date, times and volunteers needed, and volunteer sign-ups "
            "with attendance and hours logged.",
            [table("opportunities", opps, "opportunity_id"), table("shifts", shifts, "shift_id"),
             table("signups", signups, "signup_id")]),
    ]


GAME_ITEMS = [("Iron Sword", "weapon"), ("Oak Longbow", "weapon"), ("Steel Axe", "weapon"), ("Crystal Staff", "weapon"),
              ("Twin Daggers", "weapon"), ("Storm Hammer", "weapon"), ("Leather Armour", "armour"), ("Chainmail Vest", "armour"),
              ("Dragonscale Plate", "armour"), ("Oak Shield", "armour"), ("Shadow Cloak", "armour"), ("Iron Helm", "armour"),
              ("Healing Potion", "potion"), ("Mana Potion", "potion"), ("Elixir of Speed", "potion"), ("Antidote", "potion"),
              ("Fire Resistance Tonic", "potion"), ("Phoenix Feather", "potion"), ("Crimson Dye", "cosmetic"),
              ("Golden Crown", "cosmetic"), ("Fox Companion Skin", "cosmetic"), ("Starlight Trail", "cosmetic"),
              ("Pirate Hat", "cosmetic"), ("Frost Emote", "cosmetic")]
RARITIES = [("common", 60, True, "grey"), ("rare", 28, True, "blue"), ("epic", 10, True, "purple"), ("legendary", 2, False, "orange")]


def topic_gaming(rng):
    """Items (CSV), rarities (Markdown) and a nested player export with inventories, friends and matches."""
    rarity_names = [r[0] for r in RARITIES]
    items = []
    for k, (name, kind) in enumerate(GAME_ITEMS, 1):
        rarity = rng.choices(rarity_names, weights=[r[1] for r in RARITIES])[0]
        items.append(dict(item_id=f"IT{k:03d}", name=name, kind=kind, rarity=rarity,
                          coin_value={"common": 10, "rare": 50, "epic": 250, "legendary": 1500}[rarity] * rng.randint(1, 4)))
    rarities = [dict(rarity=r, drop_weight=w, tradeable=t, colour=c) for r, w, t, c in RARITIES]
    ids = [f"pl{i:03d}" for i in range(1, 31)]
    friends = {p: set() for p in ids}
    for _ in range(45):
        a, b = rng.sample(ids, 2)
        friends[a].add(b)
        friends[b].add(a)  # friendships are symmetric
    players, tags = {}, set()
    for p in ids:
        tag = f"{rng.choice(WORDS_A)}{rng.choice(WORDS_B)}{rng.randint(1, 99)}"
        while tag in tags:
            tag += "x"
        tags.add(tag)
        inventory = [{"item_id": it["item_id"], "quantity": rng.randint(1, 5) if it["kind"] == "potion" else 1,
                      "acquired": day(rng, "2023-06-01", 450)} for it in rng.sample(items, rng.randint(2, 7))]
        players[p] = {"gamertag": tag, "region": rng.choice(["EU", "NA", "ASIA", "SA", "OCE"]), "level": rng.randint(1, 80),
                      "joined": day(rng, "2023-01-01", 300), "coins": rng.randrange(0, 20000, 10),
                      "inventory": inventory, "friends": sorted(friends[p])}
    matches = {}
    for k in range(1, 41):
        mode = rng.choice(["duel", "team_deathmatch", "capture_the_flag"])
        size = 2 if mode == "duel" else rng.choice([4, 6, 8])
        matches[f"m{k:04d}"] = {"mode": mode, "map": rng.choice(["Frozen Keep", "Sunken Temple", "Ember Valley", "Sky Docks"]),
                                "played_at": f"{day(rng, '2024-08-01', 60)}T{clock(rng, 0, 24, 1)}:00Z",
                                "participants": [{"player_id": p, "team": "red" if j % 2 else "blue", "score": rng.randint(0, 40)}
                                                 for j, p in enumerate(rng.sample(ids, size))]}
    export = {"description": "Online game player export: players with gamertag, region, level, coins, an inventory "
                             "of items (item id, quantity, acquisition date) and a friends list, plus matches with "
                             "their participants and scores. Object keys are record ids.",
              "players": players, "matches": matches}
    return [
        doc("gaming/items.csv", "csv", "Game item catalogue",
            "Items players can hold in their inventory: weapons, armour, potions and cosmetics, with rarity and coin value.",
            [table("items", items, "item_id")]),
        doc("gaming/rarities.md", "md", "Item rarity tiers",
            "Item rarity tiers (common, rare, epic, legendary) with loot drop weight, whether items can be traded "
            "between players, and display colour.", [table("rarities", rarities, "rarity")]),
        doc("gaming/players_export.json", "nested", "Game player export", "", obj=export),
    ]


def topic_insurance(rng):
    """Policyholders (CSV), policies (JSON), adjusters (Markdown), claims and claim payments (SQL dump)."""
    holders = []
    for i in range(1, 51):
        f, l = person(rng)
        holders.append(dict(holder_id=f"PH{i:04d}", name=f"{f} {l}", date_of_birth=day(rng, "1950-01-01", 365 * 50),
                            email=email(f, l, i), city=rng.choice(TOWNS)))
    products = {"home": (150000, 600000, 250, 1000, 300, 1200), "motor": (20000, 80000, 100, 500, 400, 1500),
                "travel": (5000, 20000, 0, 150, 30, 200)}
    policies = []
    for i in range(1, 71):
        prod = rng.choice(sorted(products))
        lim_lo, lim_hi, ded_lo, ded_hi, pr_lo, pr_hi = products[prod]
        start = day(rng, "2023-01-01", 500)
        policies.append(dict(policy_number=f"POL{100000 + i * 7}", holder_id=rng.choice(holders)["holder_id"], product=prod,
                             coverage_limit=float(rng.randrange(lim_lo, lim_hi, 5000)), deductible=float(rng.randrange(ded_lo, ded_hi + 1, 50)),
                             annual_premium=money(rng, pr_lo, pr_hi), start_date=start,
                             end_date=shift(start, 364 if prod != "travel" else rng.randint(5, 30))))
    adjusters = []
    for i in range(1, 9):
        f, l = person(rng)
        adjusters.append(dict(adjuster_id=f"ADJ{i}", name=f"{f} {l}", speciality=rng.choice(sorted(products)),
                              region=rng.choice(["North", "South", "East", "West"])))
    what = {"home": ["burst pipe water damage", "storm damage to roof", "burglary", "kitchen fire"],
            "motor": ["rear-end collision", "windscreen crack", "vehicle theft", "parking damage"],
            "travel": ["lost baggage", "trip cancellation", "medical treatment abroad", "flight delay"]}
    claims, payments = [], []
    for i in range(1, 81):
        pol = rng.choice(policies)
        outside = rng.random() < 0.08
        incident = shift(pol["end_date"], rng.randint(5, 60)) if outside else \
            shift(pol["start_date"], rng.randint(0, (date.fromisoformat(pol["end_date"]) - date.fromisoformat(pol["start_date"])).days))
        claimed = money(rng, 200, min(pol["coverage_limit"], 25000))
        status = "denied" if outside else rng.choices(["open", "approved", "paid", "denied"], weights=[3, 2, 5, 1])[0]
        assessed = None if status in ("open", "denied") else round(claimed * rng.uniform(0.6, 1.0), 2)
        cid = f"CLM{i:05d}"
        claims.append(dict(claim_id=cid, policy_number=pol["policy_number"], incident_date=incident,
                           reported_on=shift(incident, rng.randint(0, 10)), description=rng.choice(what[pol["product"]]),
                           claimed_amount=claimed, adjuster_id=rng.choice(adjusters)["adjuster_id"],
                           assessed_amount=assessed, status=status))
        if status == "paid":
            payments.append(dict(payment_id=f"CP{len(payments) + 1:04d}", claim_id=cid,
                                 paid_on=shift(incident, rng.randint(15, 60)),
                                 amount=round(max(0.0, assessed - pol["deductible"]), 2)))
    return [
        doc("insurance/policyholders.csv", "csv", "Insurance policyholders",
            "Policyholders of the property and motor insurer with date of birth, email and city. Names are synthetic.",
            [table("policyholders", holders, "holder_id")]),
        doc("insurance/policies.json", "json", "Insurance policies",
            "Policies with policy number, policyholder, product (home, motor, travel), coverage limit, deductible, "
            "annual premium and policy period.", [table("policies", policies, "policy_number")]),
        doc("insurance/adjusters.md", "md", "Claims adjusters",
            "Claims adjusters with speciality and region; each insurance claim is assigned to an adjuster.",
            [table("adjusters", adjusters, "adjuster_id")]),
        doc("insurance/claims.sql", "sql", "Claims processing dump: claims and claim payments",
            "Insurance claims filed against policies with incident date, description, claimed amount, assigned adjuster, "
            "assessed amount and status (claims outside the policy period are denied); claim payments pay the assessed "
            "amount minus the deductible.",
            [table("claims", claims, "claim_id"),
             table("claim_payments", payments, "payment_id", [("claim_id", "claims", "claim_id")])]),
    ]


MFG_TIERS = [("raw material", ["Steel sheet 2 mm", "Steel tube 25 mm", "Aluminium bar", "Plywood panel 18 mm", "MDF board",
                               "Powder coat paint", "M6 bolt", "M6 nut", "Wood screw 4x30", "Nylon caster", "Foam block", "Upholstery fabric"]),
             ("component", ["Leg tube", "Cross brace", "Side panel", "Shelf board", "Drawer front", "Seat pan",
                            "Back frame", "Caster base", "Mounting bracket", "Top panel", "Handle", "Hinge plate"]),
             ("subassembly", ["Frame assembly", "Drawer assembly", "Seat assembly", "Base assembly", "Shelf unit",
                              "Panel set", "Lift column", "Back assembly"]),
             ("finished product", ["Office chair", "Standing desk", "Bookshelf", "Filing cabinet", "Workbench", "Storage locker"])]
UOM = {"Powder coat paint": "kg", "Upholstery fabric": "m2", "Steel sheet 2 mm": "m2", "Steel tube 25 mm": "m",
       "Aluminium bar": "m", "Plywood panel 18 mm": "m2", "MDF board": "m2"}


def topic_manufacturing(rng):
    """Parts (CSV), BOM lines (Markdown), work centres (YAML), production orders and operations (SQL dump)."""
    parts, tiers = [], []
    for kind, names in MFG_TIERS:
        tier = []
        for name in names:
            pn = f"P-{1000 + len(parts) * 10}"
            tier.append(pn)
            parts.append(dict(part_number=pn, description=name, part_type=kind, unit_of_measure=UOM.get(name, "each"),
                              standard_cost=money(rng, 0.1, 3) if kind == "raw material" else None))
        tiers.append(tier)
    bom = []
    for level in range(1, 4):  # each part is built only from parts of lower tiers, so the BOM has no cycles
        for parent in tiers[level]:
            children = rng.sample(tiers[level - 1], rng.randint(2, 3))
            if level >= 2 and rng.random() < 0.5:
                children.append(rng.choice(tiers[0]))
            for child in dict.fromkeys(children):
                bom.append(dict(parent_part=parent, child_part=child, quantity_per=rng.choice([1, 1, 2, 2, 4, 6, 8])))
    centres = [dict(work_centre_id=w, name=n, hourly_capacity_units=c, cost_rate_per_hour=r)
               for w, n, c, r in [("WC10", "Cutting", 40, 55.0), ("WC20", "Welding", 12, 70.0), ("WC30", "Machining", 20, 80.0),
                                  ("WC40", "Painting", 30, 50.0), ("WC50", "Assembly", 15, 45.0), ("WC60", "Packing", 60, 35.0)]]
    routing = {"subassembly": ["WC10", "WC20", "WC40"], "finished product": ["WC50", "WC60"]}
    orders, ops = [], []
    for i in range(1, 51):
        kind = rng.choice(["subassembly", "finished product", "finished product"])
        pn = rng.choice(tiers[2] if kind == "subassembly" else tiers[3])
        qty = rng.choice([10, 20, 25, 50, 100])
        status = rng.choice(["planned", "released", "in_progress", "completed"])
        oid = f"MO-24{i:03d}"
        orders.append(dict(order_id=oid, part_number=pn, quantity=qty, due_date=day(rng, "2024-09-01", 90), status=status))
        for k, wc in enumerate(routing[kind]):
            done = status == "completed" or (status == "in_progress" and k == 0)
            ops.append(dict(operation_id=len(ops) + 1, order_id=oid, sequence=10 * (k + 1), work_centre_id=wc,
                            planned_hours=round(qty / rng.randint(8, 40), 1), status="done" if done else "pending"))
    return [
        doc("manufacturing/parts.csv", "csv", "Parts master",
            "Parts with part number, description, part type (raw material, component, subassembly, finished product), "
            "unit of measure and standard cost for raw materials.", [table("parts", parts, "part_number")]),
        doc("manufacturing/bom_lines.md", "md", "Bill of materials (BOM) lines",
            "Single-level bill of materials: each line links a parent part to a child part with quantity per parent; "
            "exploding the BOM level by level gives the full material requirement of a finished product.",
            [table("bom_lines", bom)]),
        doc("manufacturing/work_centres.yaml", "yaml", "Shop floor work centres",
            "Work centres (cutting, welding, machining, painting, assembly, packing) with hourly capacity and cost rate.",
            [table("work_centres", centres, "work_centre_id")]),
        doc("manufacturing/production.sql", "sql", "Production orders dump: orders and operations",
            "Production orders make a quantity of a part by a due date; each order is split into operations at work "
            "centres in sequence, with planned hours and status.",
            [table("production_orders", orders, "order_id"),
             table("operations", ops, "operation_id", [("order_id", "production_orders", "order_id")])]),
    ]


# ---------------------------------------------------------------------------- registry and SOURCES.md
TOPICS = [("flights", topic_flights), ("geography", topic_geography), ("elements", topic_elements),
          ("units", topic_units), ("astronomy", topic_astronomy), ("us_states", topic_us_states),
          ("shop", topic_shop), ("hotel", topic_hotel), ("restaurant", topic_restaurant),
          ("recipes", topic_recipes), ("clinic", topic_clinic), ("pharmacy", topic_pharmacy),
          ("university", topic_university), ("lms", topic_lms), ("library", topic_library),
          ("bank", topic_bank), ("invoicing", topic_invoicing), ("portfolio", topic_portfolio),
          ("code_hosting", topic_code_hosting), ("ci", topic_ci), ("helpdesk", topic_helpdesk),
          ("tasks", topic_tasks), ("calendar", topic_calendar), ("music", topic_music), ("events", topic_events),
          ("shipping", topic_shipping), ("fleet", topic_fleet), ("real_estate", topic_real_estate),
          ("energy", topic_energy), ("farm", topic_farm), ("legal", topic_legal), ("hr", topic_hr),
          ("sports", topic_sports), ("telecom", topic_telecom), ("nonprofit", topic_nonprofit),
          ("gaming", topic_gaming), ("insurance", topic_insurance), ("manufacturing", topic_manufacturing)]

# topic folder -> theme ids in data/themes.jsonl that the folder's tables are meant to serve
TOPIC_THEMES = {
    "flights": ["travel-flight-booking", "travel-airport-directory"],
    "geography": ["geography-country-facts", "geography-world-languages", "geography-time-zone-lookup",
                  "geography-capital-cities-quiz", "finance-currency-reference", "telecom-country-calling-codes"],
    "elements": ["science-periodic-table", "science-chemical-compounds"],
    "units": ["science-unit-conversion"],
    "astronomy": ["science-solar-system-catalog"],
    "us_states": ["government-state-directory", "government-dmv-appointments"],
    "shop": ["commerce-online-store"],
    "hotel": ["hospitality-hotel-reservations"],
    "restaurant": ["food-restaurant-ordering"],
    "recipes": ["food-recipe-manager", "food-meal-planner"],
    "clinic": ["health-clinic-appointments"],
    "pharmacy": ["health-pharmacy-prescriptions"],
    "university": ["education-course-registration"],
    "lms": ["education-online-quizzes"],
    "library": ["education-library-catalog"],
    "bank": ["finance-retail-banking"],
    "invoicing": ["finance-invoicing"],
    "portfolio": ["finance-portfolio-tracker"],
    "code_hosting": ["developer_tools-code-hosting"],
    "ci": ["developer_tools-ci-pipelines"],
    "helpdesk": ["productivity-helpdesk-tickets"],
    "tasks": ["productivity-task-tracker"],
    "calendar": ["productivity-meeting-rooms"],
    "music": ["media-music-streaming"],
    "events": ["media-event-ticketing"],
    "shipping": ["logistics-parcel-tracking", "logistics-warehouse-inventory"],
    "fleet": ["automotive-fleet-maintenance"],
    "real_estate": ["real_estate-property-listings"],
    "energy": ["energy-smart-meter-billing"],
    "farm": ["agriculture-crop-planning"],
    "legal": ["legal-case-management"],
    "hr": ["hr-employee-directory", "hr-leave-management"],
    "sports": ["sports-league-management"],
    "telecom": ["telecom-mobile-subscriptions"],
    "nonprofit": ["nonprofit-donation-tracking", "nonprofit-volunteer-scheduling"],
    "gaming": ["gaming-player-inventory"],
    "insurance": ["insurance-claims-processing"],
    "manufacturing": ["manufacturing-production-orders", "manufacturing-bill-of-materials"],
}

FORMAT_NAMES = {"csv": "CSV", "tsv": "TSV", "json": "JSON record lists", "jsonarr": "JSON bare array",
                "nested": "JSON nested ID-keyed export", "md": "Markdown tables", "html": "HTML tables",
                "sql": "SQL dump", "yaml": "YAML record list"}


def doc_tables(d):
    """(name, row count) of every table a file holds, nested exports included."""
    if d["obj"] is not None:
        return [(k, len(v)) for k, v in d["obj"].items() if isinstance(v, dict)]
    return [(t["name"], len(t["rows"])) for t in d["tables"]]


def describe_warts(docs):
    """One line per deliberate wart, found by inspecting the generated tables."""
    out = []
    for d in docs:
        if d["ragged"] is not None:
            row = d["tables"][0]["rows"][d["ragged"]]
            out.append(f"`{d['path']}`: the row of transaction `{row['transaction_id']}` lacks its last field "
                       f"(`memo`), so it has one cell fewer than the header (ragged CSV row).")
        for t in d["tables"]:
            keys = list(t["rows"][0])
            odd = [r for r in t["rows"] if list(r) != keys]
            if odd and d["fmt"] in ("json", "jsonarr"):
                out.append(f"`{d['path']}`: record `{odd[0][t['pk']]}` has a different shape (no `language` or `stars`; "
                           f"extra `archived` and a list-valued `topics`).")
            if t["pk"] and d["fmt"] == "csv":
                seen = [r[t["pk"]] for r in t["rows"]]
                dups = sorted({k for k in seen if seen.count(k) > 1})
                if dups:
                    out.append(f"`{d['path']}`: key `{t['pk']}` = `{dups[0]}` appears twice (the later row repeats the "
                               f"item with a price 1.50 higher, like an appended price update).")
    return out


def sources_md(docs, seed):
    """The text of data/corpus/SOURCES.md."""
    lines = ["# Corpus sources", "",
             f"Every file here is written by `data/make_corpus.py` (seed {seed}); rerunning "
             "`python data/make_corpus.py` rewrites them byte for byte. *Facts* are public reference facts typed "
             "into the script's tables (only facts we are sure of; disputed or fast-changing ones were left out). "
             "*Sample* records are synthetic: people, companies, products, venues and their identifiers are "
             "invented, drawn from `random.Random` seeded per topic from the seed.", "",
             "## Topic folders and the themes they serve", "",
             "| topic folder | theme ids (data/themes.jsonl) | files |", "| --- | --- | --- |"]
    for topic, _ in TOPICS:
        files = [d["path"].split("/", 1)[1] for d in docs if d["path"].startswith(topic + "/")]
        lines.append(f"| `{topic}/` | {', '.join(TOPIC_THEMES[topic])} | {', '.join(files)} |")
    lines += ["", "## Files", "", "| file | format | tables (rows) | source |", "| --- | --- | --- | --- |"]
    for d in docs:
        tabs = ", ".join(f"{n} ({k})" for n, k in doc_tables(d))
        src = d["source"] if d["source"] != "sample" else f"sample records, make_corpus.py seed {seed}"
        lines.append(f"| `{d['path']}` | {FORMAT_NAMES[d['fmt']]} | {tabs} | {src} |")
    lines += ["", "Mixed folders: `flights/`, `astronomy/`, `us_states/`, `pharmacy/`, `library/` and `farm/` pair "
              "fact tables with sample tables; the sample tables reference the facts by key (airport and airline "
              "codes, planets, state codes, medication ids, book ids, crop ids).", "",
              "## Deliberate warts", "", "Kept on purpose so the miner's parsers are exercised on imperfect input:", ""]
    lines += [f"- {w}" for w in describe_warts(docs)]
    lines += ["- Bare JSON arrays (`portfolio/trades.json`, `nonprofit/donations.json`) cannot carry a description "
              "field, so they have no descriptive text.",
              "- Some CSV cells are quoted because they contain commas (for example `Washington, D.C.`).", ""]
    return "\n".join(lines)


# ---------------------------------------------------------------------------- main
if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Write the sample corpus under data/corpus/.")
    # I/O
    parser.add_argument("--out", default=str(Path(__file__).resolve().parent / "corpus"),
                        help="output folder; an existing corpus there (with SOURCES.md) is replaced")
    # Runtime
    parser.add_argument("--seed", type=int, default=1234, help="seed for the sample records")
    args = parser.parse_args()
    out = Path(args.out)
    print(f"writing {len(TOPICS)} topics to {out} with seed {args.seed}")

    docs = []
    for name, build in TOPICS:
        docs += build(topic_rng(args.seed, name))

    if out.exists():
        if any(out.iterdir()) and not (out / "SOURCES.md").exists():
            raise SystemExit(f"{out} is not empty and holds no SOURCES.md; refusing to replace it")
        shutil.rmtree(out)
    for d in docs:
        path = out / d["path"]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(WRITERS[d["fmt"]](d), encoding="utf-8", newline="\n")
    (out / "SOURCES.md").write_text(sources_md(docs, args.seed), encoding="utf-8", newline="\n")

    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    formats = sorted({d["fmt"] for d in docs})
    print(f"wrote {len(docs)} files in {len(TOPICS)} topic folders, {size / 1e6:.2f} MB, formats: {', '.join(formats)}")
    print(f"example: {docs[0]['path']} first row: {docs[0]['tables'][0]['rows'][0]}")
