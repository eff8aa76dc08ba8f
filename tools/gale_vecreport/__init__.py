"""tools/vecreport, one module per job (docs/vecreport.md, "Code layout").
Imports only go down this list, so there are no cycles:

  common       repository root, error exit, repository-relative paths
  cells        the text of a row's table cells (status, width, loop)
  rawloop      RawLoop: one compiler loop, the parsers' output
  flags        compiler, ISA and flags: presets, CMakeLists.txt, compile_commands.json
  cscan        C scanner: functions, loops, macros, kernel rows, call graph
  unmacro      macro re-expansion with #line (loops in macros get their own lines)
  parse_gcc    gcc's optimisation records (JSON; -fopt-info text as a fallback)
  parse_clang  clang's remark YAML and optimised IR
  merge        compiler loops -> report rows (source loop, body, caller; merged)
  report       compile with records, parse, merge: a report dict
  guard        the kernel guard: verdicts, exception list, its lines and tables
  render       a report as Markdown
  diff         two reports -> the loops that changed, and their table
  cli          the command line (report, diff, check, verify-unmacro)
"""
