"""The pages that compose several apps: home (`home`), news (`news`), and the team page and
profiles (`people`, its addresses in `people_urls`). Each app's own pages live in the app."""
