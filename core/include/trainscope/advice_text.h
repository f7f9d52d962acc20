// SPDX-License-Identifier: Apache-2.0
// The what-ifs of an advice report as text: what `python3 -m trainscope advise` prints and
// `trainscope-cli show PREFIX.advice.sqlite` prints from the file.
#pragma once

#include <ostream>

#include "trainscope/advice_report.h"

namespace trainscope {

// "Measured: peak ..., activations ..., step ...", then each what-if with its predicted and
// measured figures and the error, or why it was not run.
void printAdvice(std::ostream& out, const AdviceReport& report);

}  // namespace trainscope
