"""The encounter model: zone, combatants, reflex, turn economy, movement, contests.

Pure Python, no Qt. Every change is an Op (:mod:`afdesk.encounter.ops`).
"""
