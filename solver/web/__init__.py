"""`rummisolve serve`: a web page for the phone beside the tiles, and the JSON API it
calls (`POST /api/hint`). `api` answers a request body through the same core calls as
`hint --json`; `server` is the HTTP around it; `static/` is the page, shipped as it is."""
