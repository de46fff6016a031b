"""Simulation lab: self-play runs, statistics and reports over many games."""
