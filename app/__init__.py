"""errata: a bilingual knowledge base of software errors."""
