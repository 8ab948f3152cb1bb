"""Tests of semloop.lexical, the exact deepeval port."""
