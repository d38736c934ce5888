"""One error, one entry: finding duplicates, merging them by rule or by a moderator, undoing it."""
