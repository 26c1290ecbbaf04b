"""AutoProf from Python: optimization reports as typed objects
(`load_report`), the metric catalog (`load_catalog`), roofline charts
(`autoprof.plots`), one HTML page per run (`autoprof.html.render`), outcome
tables of profiling configurations (`load_outcomes`) and the tools
(`autoprof.tools.optimize`)."""

from .catalog import Catalog, CatalogError, load_catalog
from .outcomes import OutcomeTable, load_outcomes, parse_outcomes
from .reports import (Candidate, FailedKernel, KernelResult, Metric,
                      OptimizeReport, ReportError, Retiming, Timing,
                      load_report, parse_report)

__all__ = ["Candidate", "Catalog", "CatalogError", "FailedKernel",
           "KernelResult", "Metric", "OptimizeReport", "ReportError",
           "OutcomeTable", "Retiming", "Timing", "load_catalog",
           "load_outcomes", "load_report", "parse_outcomes", "parse_report"]
__version__ = "0.1.0"
