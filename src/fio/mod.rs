//! Score-file formats: GOBNILP/Jaakkola jkl (and its variants) and URLearning `.pss`.
