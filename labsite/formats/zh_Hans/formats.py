# Dates as the site writes them in Chinese: "2026年6月", "2026年6月15日".
DATE_FORMAT = "Y年n月j日"
YEAR_MONTH_FORMAT = "Y年n月"
