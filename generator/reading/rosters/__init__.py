"""Rosters as BattleScribe and New Recruit write them, read as hostile input into plain units and profiles."""
