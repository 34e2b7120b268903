# One R process that runs the tests' R code, block after block (tests/r/session.py sends them).
# Each request is a line: folder, script, output file, messages file, then NAME=value pairs, all
# tab-separated. The script runs in the folder as Rscript would run it there: in an environment
# of its own, its visible values printed, with the variables set. Then the session is put back as
# a new one starts: the packages the script attached are detached (their namespaces stay loaded,
# which is what a new process would spend its first seconds on), and its options, variables,
# environment variables and graphics devices are gone. The answer is "ok" or "error" on a line
# of its own. The session's own variables live in local(), out of the scripts' way.

local({
  input <- file("stdin", open = "r")
  fresh_search <- search()
  fresh_options <- options()
  fresh_variables <- as.list(Sys.getenv())

  repeat {
    line <- readLines(input, n = 1)
    if (length(line) == 0) break
    request <- strsplit(line, "\t", fixed = TRUE)[[1]]
    pairs <- request[-(1:4)]
    if (length(pairs)) {
      do.call(Sys.setenv, as.list(setNames(sub("^[^=]*=", "", pairs), sub("=.*", "", pairs))))
    }
    setwd(request[1])
    output <- file(request[3], open = "wt")
    messages <- file(request[4], open = "wt")
    sink(output)
    sink(messages, type = "message")
    succeeded <- tryCatch(
      {
        source(request[2], local = new.env(parent = globalenv()), print.eval = TRUE)
        TRUE
      },
      error = function(condition) {
        message("Error: ", conditionMessage(condition))
        FALSE
      }
    )
    sink(type = "message")
    sink()
    close(output)
    close(messages)
    graphics.off()
    for (name in setdiff(search(), fresh_search)) detach(name, character.only = TRUE)
    options(fresh_options)
    rm(list = ls(globalenv(), all.names = TRUE), envir = globalenv())
    Sys.unsetenv(setdiff(names(Sys.getenv()), names(fresh_variables)))
    do.call(Sys.setenv, fresh_variables)
    cat(if (succeeded) "ok" else "error", "\n", sep = "")
    flush(stdout())
  }
})
