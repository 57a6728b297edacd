// Importing a package the kernel does not carry says which packages it does and where to read
// how to add one.
import "github.com/someone/else"
// Output:
// Error: ImportError: cell:3:8: package "github.com/someone/else" is not available in this kernel: cells import the standard library and the kernel's plugins (kernel/display, gonum.org/v1/plot…, gpt, tokenizer, viz); "Adding your own package" in the README shows how to add one
