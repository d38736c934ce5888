"""Full-text search and the index that keeps it in step with entries."""
