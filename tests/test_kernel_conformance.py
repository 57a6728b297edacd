"""The official Jupyter kernel conformance suite (Debian's python3-jupyter-kernel-test),
subclassed for gptnotes with a sample for every test it offers: none is skipped."""
import unittest

import jupyter_kernel_test as jkt
from jupyter_client.utils import run_sync

from kernel_harness import KERNEL_NAME

DISPLAY = "github.com/gptnotes/gptnotes/kernel/display"


class GptnotesKernelTests(jkt.KernelTests):
    kernel_name = KERNEL_NAME
    language_name = "go"
    file_extension = ".go"

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        # The notebook's first cell: later samples use these packages without importing them.
        reply = cls.kc.execute_interactive(f'import (\n\t"fmt"\n\t"os"\n\t"{DISPLAY}"\n)', timeout=30)
        assert reply["content"]["status"] == "ok", reply["content"]

    code_hello_world = 'fmt.Println("hello, world")'
    code_stderr = 'fmt.Fprintln(os.Stderr, "something went wrong")'

    completion_samples = [
        {"text": "fmt.Printl", "matches": {"Println"}},
        {"text": "fmt.Sprin", "matches": {"Sprint", "Sprintf", "Sprintln"}},
        {"text": "display.Markd", "matches": {"Markdown", "MarkdownString", "Markdowner"}},
    ]

    complete_code_samples = ["x := 1", 'fmt.Println("hi")', "func f() int { return 1 }",
                             "type point struct{ X, Y int }"]
    incomplete_code_samples = ["func f() {", "for i := 0; i < 3; i++ {", "xs := []int{1,\n2,"]
    invalid_code_samples = ["x := )", "}", "var := 3"]

    code_page_something = "?fmt.Println"

    code_generate_error = 'panic("boom")'

    code_execute_result = [
        {"code": "1 + 2", "result": "3"},
        {"code": '"go" + "pher"', "result": "gopher"},
        {"code": 'display.HTMLString("<b>bold</b>")', "mime": "text/html", "result": "<b>bold</b>"},
        {"code": 'display.MarkdownString("*it*")', "mime": "text/markdown", "result": "*it*"},
    ]

    code_display_data = [
        {"code": 'display.HTML("<b>hi</b>")', "mime": "text/html"},
        {"code": 'display.Markdown("# Title")', "mime": "text/markdown"},
        {"code": 'display.Latex("$e^{i\\\\pi} + 1 = 0$")', "mime": "text/latex"},
        {"code": 'display.SVG(`<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>`)',
         "mime": "image/svg+xml"},
        {"code": 'display.JSON(map[string]any{"a": 1})', "mime": "application/json"},
    ]

    code_history_pattern = "1 + ?"
    supported_history_operations = ("tail", "range", "search")

    code_inspect_sample = "fmt.Println"

    code_clear_output = "display.ClearOutput(true)"


class NoSampleMissing(unittest.TestCase):
    def test_every_suite_test_has_a_sample(self):
        """A test of the suite without a sample raises SkipTest: declare them all."""
        names = [n for n in dir(jkt.KernelTests) if n.startswith(("code_", "completion_", "complete_",
                                                                   "incomplete_", "invalid_"))]
        for n in names:
            self.assertTrue(getattr(GptnotesKernelTests, n), f"no sample for {n}")
        self.assertTrue(GptnotesKernelTests.supported_history_operations)


if __name__ == "__main__":
    unittest.main()
