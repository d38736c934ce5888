"""Services: the operations of errata, independent of HTTP."""
