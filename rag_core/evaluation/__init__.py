"""Evaluation: recall, MRR, zero-hit and refusal rates on question sets.

Runs questions through the facade it is given (so it measures exactly what chat
does); the pure metric functions live in `metrics`.

May import: every stage below it; it is given the facade object, never imports it.
"""
