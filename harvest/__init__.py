"""Keeping the lab's record current: members' new work harvested from ORCID, OpenAlex,
Crossref, DBLP and arXiv into candidates for review, and the figures (citation counts, GitHub
stars) refreshed with their source and date.

`sources` reads each service into `Found` works; `matching` folds them into candidates (one
per work, whatever number of sources name it) or into the lab's papers; `runs` does one
harvest and writes its report; `review` accepts, merges, rejects; `figures` refreshes the
counts; `digests` tells members what waits for them; `tasks` queues runs for the worker.
"""
