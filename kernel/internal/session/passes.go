package session

import (
	"go/ast"
	"go/token"
	"go/types"
)

// A pass is one rewrite that closes a gap between Go 1.26 and yaegi v0.16.1 on the cell's AST
// before yaegi sees it: its name, the file that holds it, and the program of testdata/cells that
// shows it (the program's transcript changes without the pass; TestPassPrograms checks it).
// The driver (rewrite.go) calls the functions a pass sets, at these points:
//
//	cell   once per cell, before any piece: what the pass's later steps read
//	piece  on each piece's tree, before its statements are rewritten
//	stmt   on each statement, inner ones first; the statement it returns replaces s, and the
//	       passes after it in the list see that one
//	after  on each piece's tree, once its statements are rewritten
//	expr   on each expression, inner ones first; the first pass whose result differs from e
//	       replaces e, and the passes after it do not see e
//	wrap   on each expression once the expr passes ran, with orig as the cell wrote it
//	module on each file of a module package the importer checked (modules.go's moduleChecked),
//	       with the package's path and type information, before the interpreter reads it;
//	       it reports whether it changed the file. Its program imports a module of the
//	       tests' file:// proxy (modules_test.go's fixtureModules)
//
// A new rewrite is a file with its functions, one entry in passes, and a program in
// testdata/cells; doc.go lists the files in the order of passes (TestPassesInDoc).
type pass struct {
	name    string // e.g. "rangeint"
	file    string // e.g. "rangeint.go"
	program string // e.g. "range_over_int", for testdata/cells/range_over_int.txtar

	cell  func(c *cellCtx)
	piece func(c *cellCtx, root ast.Node)
	stmt  func(c *cellCtx, s ast.Stmt) ast.Stmt
	after func(c *cellCtx, root ast.Node)
	expr  func(c *cellCtx, e ast.Expr) ast.Expr
	wrap  func(c *cellCtx, orig, e ast.Expr) ast.Expr

	module func(path string, fset *token.FileSet, f *ast.File, info *types.Info) bool
}

// passes are the rewrites, in the order the driver runs each of its steps.
var passes = []pass{
	{name: "preludegeneric", file: "generics.go", program: "generic_stdlib_functions", expr: preludeGenericExpr},
	{name: "newexpr", file: "newexpr.go", program: "lang_go126_new_expr", cell: findNewCalls, expr: newValueExpr},
	{name: "typeargs", file: "typeargs.go", program: "lang_go121_type_inference", cell: findTypeArgs, expr: typeArgsExpr},
	{name: "ifacestore", file: "ifacestore.go", program: "interface_stores", cell: findInterfaceStores, wrap: interfaceStoreWrap},
	{name: "mainfunc", file: "mainfunc.go", program: "func_main", cell: (*cellCtx).mainFunc},
	{name: "printbuiltins", file: "printbuiltins.go", program: "print_builtins", piece: printBuiltins},
	{name: "deferliterals", file: "deferliterals.go", program: "lang_go122_loopvar_assigned", piece: (*cellCtx).deferredLiterals},
	{name: "closures", file: "closures.go", program: "closures_to_compiled_code", piece: (*cellCtx).closuresInLoops},
	{name: "selects", file: "selects.go", program: "select_break_continue", piece: (*cellCtx).selectJumps},
	{name: "methodvalues", file: "methodvalues.go", program: "method_values", piece: (*cellCtx).methodValues},
	{name: "rangefunc", file: "rangefunc.go", program: "range_over_func", cell: findRangeFuncs, stmt: rangeFuncStmt},
	{name: "loopvars", file: "loopvars.go", program: "lang_go122_loopvar_assigned", stmt: loopVarsStmt},
	{name: "rangeint", file: "rangeint.go", program: "range_over_int", stmt: rangeIntStmt},
	{name: "switchinit", file: "switchinit.go", program: "switch_init", stmt: switchInitStmt, module: switchInitModule},
	{name: "taggedswitch", file: "tagged.go", program: "named_number_in_any", stmt: taggedSwitchStmt},
	{name: "typeswitch", file: "typeswitch.go", program: "type_switch_on_interfaces", stmt: typeSwitchChainStmt},
	{name: "typeswitchbinding", file: "typeswitchbinding.go", program: "type_switch_binding", stmt: typeSwitchBindingStmt},
	{name: "gostmt", file: "gostmt.go", program: "goroutine_panic", stmt: goStmtStmt},
	{name: "namedresults", file: "namedresults.go", program: "named_results", after: zeroNamedResults},
	{name: "logsource", file: "logsource.go", program: "log_source_lines", cell: findLogCalls, wrap: logSourceWrap},
	{name: "multiassign", file: "multiassign.go", program: "multi_value_assignments", after: findMultiValues, wrap: multiValueWrap},
	{name: "methodexpr", file: "methodexpr.go", program: "method_expression", expr: methodExprExpr},
	{name: "cellassert", file: "cellassert.go", program: "type_assertion_to_cell_struct", cell: findCellAssertions, expr: cellAssertionExpr},
	{name: "recovered", file: "recovered.go", program: "recover_values", expr: recoveredExpr},
	{name: "jsonerrors", file: "jsonerrors.go", program: "json_type_errors", expr: jsonExpr},
	{name: "minmax", file: "minmax.go", program: "min_max_clear", expr: minMaxExpr},
	{name: "wrappederrors", file: "wrappederrors.go", program: "errors_as", expr: wrappedErrorsExpr},
	{name: "displayargs", file: "displayargs.go", program: "display_renderers", expr: displayArgsExpr},
	{name: "cellformat", file: "cellformat.go", program: "cell_type_verbs", cell: findCellFormats, expr: cellFormatExpr},
	{name: "panicnil", file: "panicnil.go", program: "lang_go121_panic_nil", expr: panicArgExpr},
	{name: "structnames", file: "structnames.go", program: "module_lookalike_structs", module: nameStructs},
	{name: "ifaceparams", file: "ifaceparams.go", program: "module_lookalike_structs", module: unwrapInterfaceParams},
	{name: "compiledassert", file: "compiledassert.go", program: "module_error_causes", module: compiledAssertions},
}
