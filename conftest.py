"""The repository's own suite configuration.

The ini keys in pyproject.toml make ``pytest cases`` run offline: the builtin template
summarizer judged by the builtin rules juror. Pass --rwe-model / --rwe-jury to test real
models instead.
"""
