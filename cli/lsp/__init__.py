"""mcpdeps lsp: the lint model and the resolver graph in an editor, over the Language Server Protocol."""
