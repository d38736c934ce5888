"""An entry's revisions: who made each and why, a readable diff of any two, restoring one."""
