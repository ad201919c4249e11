"""Exporters: benchsmith tasks in other formats (Harbor tasks, for now)."""

from benchsmith.export.harbor import ExportedTask, ExportRefusedError, HarborExport, export_harbor

__all__ = ["ExportRefusedError", "ExportedTask", "HarborExport", "export_harbor"]
