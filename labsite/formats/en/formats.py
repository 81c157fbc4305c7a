# Dates as the site writes them in English: "Jun 2026", "15 Jun 2026".
DATE_FORMAT = "j M Y"
YEAR_MONTH_FORMAT = "M Y"
