#!/usr/bin/env python3
"""scripts/house_checks.py finds functions the way a reader counts them: each test fails when the
counting is off by one line or is fooled by a brace in a literal."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "scripts"))
import house_checks  # noqa: E402


def lengths(source):
    with tempfile.NamedTemporaryFile("w", suffix=".cpp", delete=False) as f:
        f.write(source)
    try:
        return [(header.split("(")[0].split()[-1], last - first + 1)
                for first, last, header in house_checks.functions(f.name)]
    finally:
        os.unlink(f.name)


def body(n):
    """A function of exactly n lines, its signature and closing brace included."""
    return "int f(int x) {\n" + "  x += 1;\n" * (n - 2) + "}\n"


class FunctionLengths(unittest.TestCase):
    def test_counts_signature_to_closing_brace(self):
        self.assertEqual(lengths(body(60)), [("f", 60)])
        self.assertEqual(lengths(body(61)), [("f", 61)])

    def test_member_functions_in_classes_and_namespaces(self):
        src = "namespace a {\nstruct s {\n  void g() {\n    h();\n  }\n};\n}\nvoid s::k()\n{\n}\n"
        self.assertEqual(lengths(src), [("g", 3), ("s::k", 3)])

    def test_lambdas_and_blocks_belong_to_their_function(self):
        src = "auto m() {\n  if (x) {\n    y();\n  }\n  return [=](int v) {\n    return v;\n  };\n}\n"
        self.assertEqual(lengths(src), [("m", 8)])

    def test_braces_in_comments_and_literals_do_not_count(self):
        src = ('int f() {\n  // }\n  /* { */\n  auto s = "}";\n  auto c = \'}\';\n'
               '  auto r = R"x(})x";\n  return 1\'000;\n}\nint g() {\n}\n')
        self.assertEqual(lengths(src), [("f", 8), ("g", 2)])

    def test_initialisers_and_classes_are_not_functions(self):
        src = "const std::map<int, int> table = {\n  {1, 2},\n};\nenum class e { a, b };\n"
        self.assertEqual(lengths(src), [])


if __name__ == "__main__":
    unittest.main()
