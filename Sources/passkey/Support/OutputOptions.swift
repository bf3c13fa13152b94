import ArgumentParser

/// `--json`: every command that prints a result takes it, with one meaning: print JSON on standard
/// output, also on a terminal (where some commands print text by default) and for refusals the
/// command reports as JSON.
///
/// What each command's JSON holds is its output type's (``CommandOutput``); the flag only picks
/// the form.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Print JSON on standard output instead of text.")
    var json = false
}
