"""Optional integrations with other evaluation frameworks.

Each integration lives in its own module and imports its framework only there, so the core
package never pays for a framework it does not use: ``pytest_rwe.integrations.deepeval``
needs ``pip install "pytest-rwe[deepeval]"``; nothing here imports it.
"""
