"""Helpers of scripts/build_labeled_set.py: base summaries, text surgery, mutations."""
