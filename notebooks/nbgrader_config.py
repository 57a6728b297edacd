# nbgrader's configuration for the gptnotes exercises: Go notebooks on the gptnotes kernel.
#
# Copy this file into an nbgrader course directory (beside its source/ folder), and put
# notebooks/07-exercises-solutions.ipynb in source/ASSIGNMENT/ as the instructor's version: its
# answer and check cells already carry nbgrader's cell metadata (written by notebooks/build.py),
# and each solution region sits between // BEGIN SOLUTION and // END SOLUTION. nbgrader
# generate_assignment then replaces each region with the stub below, and autograde runs the check
# cells, which fail by panicking when an answer is wrong.
#
# nbgrader is not installed or run in gptnotes' tests; tests/test_nbgrader.py checks the
# metadata against nbgrader's schema (version 3) and runs the blanked notebook this
# configuration would make. `gptnotes grade` does the same job without nbgrader.
c = get_config()  # noqa: F821 (nbgrader's config loader defines it)

# What replaces a solution region in a Go notebook (the kernelspec's language is "go"): a
# panic, so a function left unsolved still compiles, and its check fails saying why.
c.ClearSolutions.code_stub = {"go": 'panic("not implemented")'}
c.ClearSolutions.text_stub = "YOUR ANSWER HERE"
# The region's delimiters: nbgrader matches any line that contains them, so the Go comments
# "// BEGIN SOLUTION" and "// END SOLUTION" work. (nbgrader spells the option "delimeter".)
c.ClearSolutions.begin_solution_delimeter = "BEGIN SOLUTION"
c.ClearSolutions.end_solution_delimeter = "END SOLUTION"

# The first cell loads the model and a check may run the model for a few seconds; nbgrader's
# default of 30 s per cell is enough here, 120 leaves room on a loaded server.
c.Execute.timeout = 120
