"""pytest plugin of bench/mutation_map.py: the processes tests start measure their coverage.

coverage's .pth hook starts measuring in any Python process that finds COVERAGE_PROCESS_START
set. It is set here, once the pytest process has started its own measurement, so that only
the processes the tests start read the configuration it names.
"""

import os


def pytest_configure(config) -> None:
    os.environ["COVERAGE_PROCESS_START"] = os.environ["ERRATA_CHILD_COVERAGE"]
