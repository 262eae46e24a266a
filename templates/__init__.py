"""Files written by `mcpdeps new` (package data)."""
