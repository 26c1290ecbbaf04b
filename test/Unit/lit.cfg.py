# -*- Python -*-
# Runs the GoogleTest unit tests as lit tests, one lit test per gtest case.

import lit.formats

config.name = "AutoProf-Unit"
config.suffixes = []
config.test_source_root = config.autoprof_unit_tests_dir
config.test_exec_root = config.autoprof_unit_tests_dir
config.test_format = lit.formats.GoogleTest(".", "Tests")
