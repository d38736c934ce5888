"""One module per surface of the site; app.main includes them."""
