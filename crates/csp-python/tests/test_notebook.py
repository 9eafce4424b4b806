"""examples/python/nqueens.ipynb executes (when nbclient and ipykernel are installed)."""

import pathlib

import pytest

NOTEBOOK = pathlib.Path(__file__).resolve().parents[3] / "examples" / "python" / "nqueens.ipynb"


def test_notebook_executes():
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    if not NOTEBOOK.exists():
        pytest.skip(f"{NOTEBOOK} is not in this checkout")
    nb = nbformat.read(str(NOTEBOOK), as_version=4)
    nbclient.NotebookClient(nb, timeout=120, kernel_name="python3").execute()
    svgs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.outputs
            if "image/svg+xml" in o.get("data", {})]
    assert len(svgs) == 3  # two trees and the chart
