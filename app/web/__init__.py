"""HTTP: templates, dependencies, error responses. Routes live in app.routers."""
