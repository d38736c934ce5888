"""Evidence: outcome reports, their moderation, and the statistics that turn them into rates."""
