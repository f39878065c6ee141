"""What one finished game says: its result row, blunders, explosions and roles."""
