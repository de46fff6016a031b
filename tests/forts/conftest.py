"""Five Forts tests import their helpers by module name (as the other games' tests do)."""
