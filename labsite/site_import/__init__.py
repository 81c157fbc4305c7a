"""Bringing in a whole site: a lab or a researcher moving from al-folio (Jekyll) or Hugo Blox.

1. *read* (`alfolio`, `hugo`, sharing `site`): the folder (or a ZIP of it) becomes a `Site`
   of plain values: people with their profile sections, news, projects, talks, and the
   publications as the BibTeX importer reads them. What the site says that labsite has no
   place for is listed, never dropped silently; a file that cannot be read is a problem.
2. *preview and apply* (`writing`): the same code path writes the site into the lab, in one
   transaction, matching what is already there (a person by ORCID or any printed form of
   their name, each row by what it says); a preview runs it and rolls it back, so what it
   shows is what applying writes. A site with any problem writes nothing.
"""

from labsite.site_import.site import Site, SiteProblem
from labsite.site_import.writing import Report, import_site, open_site

__all__ = ["Report", "Site", "SiteProblem", "import_site", "open_site"]
