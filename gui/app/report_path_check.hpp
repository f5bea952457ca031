// Whether the report path typed in the record dialog can take what a recording writes: the report (.json) and, beside
// it, the recording (.record) and the program's output (.output.txt). Checked as typed, before anything runs, so that
// the dialog says what is wrong with the path the user gave, under its field, instead of a file they never named
// failing once the program has run.
#pragma once

#include <QString>

namespace asyncscope {

// Empty where the report can be written as `typed` (its folder there and writable, or one that can be made in a
// writable folder); else why not, naming the path as typed: not a .json file, a folder in the way that is a file, a
// folder that cannot be written, one of the three files a directory or a device. Makes nothing.
QString reportPathProblem(const QString& typed);

}  // namespace asyncscope
