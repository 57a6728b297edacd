package session

import "go/ast"

// mainFunc renames a cell's func main and calls it once, right after its declaration. yaegi
// would run a function named main after compiling every later piece of every later cell. Its
// body starts with a fresh command line (flag.CommandLine), as a new process would have.
// References to main in any cell follow the rename.
func (c *cellCtx) mainFunc() {
	const renamed = "__gptnotes_main"
	var out []piece
	for _, p := range c.pieces {
		root := p.root()
		replaceExprs(root, func(e ast.Expr) ast.Expr {
			if id, ok := e.(*ast.Ident); ok && id.Name == "main" {
				id.Name = renamed
			}
			return e
		})
		out = append(out, p)
		if p.kind != declPiece {
			continue
		}
		for _, d := range p.file.Decls {
			if f, ok := d.(*ast.FuncDecl); ok && f.Recv == nil && f.Name.Name == "main" {
				f.Name.Name = renamed
				// Each run of main sees the command line of a program just started.
				fresh := &ast.ExprStmt{X: &ast.CallExpr{Fun: runtimeFuncAt("FreshCommandLine", f.Body.Lbrace), Lparen: f.Body.Lbrace, Rparen: f.Body.Lbrace}}
				f.Body.List = append([]ast.Stmt{fresh}, f.Body.List...)
				// Positions inside the cell: yaegi finds a piece's imports by its file name.
				call := &ast.ExprStmt{X: &ast.CallExpr{Fun: &ast.Ident{Name: renamed, NamePos: f.Name.Pos()}, Lparen: f.End(), Rparen: f.End()}}
				body := &ast.BlockStmt{Lbrace: f.Pos(), List: []ast.Stmt{call}, Rbrace: f.End()}
				out = append(out, piece{kind: stmtPiece, start: p.end, end: p.end, body: body})
			}
		}
	}
	c.pieces = out
}
