"""The workbook: what its cells call, the runner (papermill), the narrative form."""
