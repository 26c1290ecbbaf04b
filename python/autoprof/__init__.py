"""AutoProf from Python: optimization reports as typed objects
(`load_report`), what became of each candidate and why
(`KernelResult.outcomes`), compute roofs per GPU and element type
(`autoprof.peaks`), the metric catalog (`load_catalog`), roofline charts
(`autoprof.plots`), one HTML page per run (`autoprof.html.render`), outcome
tables of profiling configurations (`load_outcomes`) and the tools
(`autoprof.tools.optimize`)."""

from .catalog import Catalog, CatalogError, load_catalog
from .files import InputError
from .outcomes import OutcomeTable, load_outcomes, parse_outcomes
from .peaks import Roof, choose_roof, gpu_peaks
from .reports import (Candidate, CandidateOutcome, FailedKernel,
                      KernelResult, Metric, OptimizeReport, ReportError,
                      Retiming, Timing, load_report, parse_report)

__all__ = ["Candidate", "CandidateOutcome", "Catalog", "CatalogError",
           "FailedKernel", "InputError", "KernelResult", "Metric",
           "OptimizeReport", "OutcomeTable", "ReportError", "Retiming",
           "Roof", "Timing", "choose_roof", "gpu_peaks", "load_catalog",
           "load_outcomes", "load_report", "parse_outcomes", "parse_report"]
__version__ = "0.1.0"
