"""Playing a tournament: its configuration, schedule, recorded design and result rows."""
