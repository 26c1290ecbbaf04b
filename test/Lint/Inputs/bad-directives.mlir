// RUN autoprof-opt %s
// expected-err @below {{x}}
// CHECK-LABLE: foo
// CHECK foo
// CHECK: fine
// expected-error @below {{fine}}
