"""Database-specific code, one module per backend; everything else speaks plain SQLAlchemy."""
