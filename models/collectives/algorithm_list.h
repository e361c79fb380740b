// The registered collective algorithms: X(enumerator of models::Algorithm, the function in the
// algorithm's file that returns its instance). Adding an algorithm is a file under
// models/collectives/ that defines the function, and one line here (docs/architecture.md
// section 5.1). The order is the enum's and that of `--algorithm`'s list.
#pragma once

#define TRN_COLLECTIVE_ALGORITHMS(X) \
  X(Ring, ring_algorithm)            \
  X(KangaRing, kangaring_algorithm)  \
  X(Mesh, mesh_algorithm)            \
  X(Rdh, rdh_algorithm)
