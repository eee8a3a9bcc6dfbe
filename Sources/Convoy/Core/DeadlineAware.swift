/// A step of Convoy's own that returns at once or waits only on something that ends by the
/// call's deadline (`RequestContext.deadline`), so the pipeline runs it in place rather than
/// racing it against the deadline (`DeadlineRace`).
protocol DeadlineAware {}
