// Selects a kernel set.
#include "coding/backend.h"

#include "coding/backend_isal.h"
#include "coding/backend_scalar.h"

namespace ncgw::coding {

const GfKernels& kernels(Backend b) {
  static const IsalKernels isal;
  static const ScalarKernels scalar;
  return b == Backend::kIsal ? static_cast<const GfKernels&>(isal) : scalar;
}

}  // namespace ncgw::coding
