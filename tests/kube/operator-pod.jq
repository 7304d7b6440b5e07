# The operator's pod: the offset Job's pod template (not its Job's labels), less the reviewed
# plan (not made yet), sleeping $sleep seconds; the operator runs export, plan, resume and check
# in it (kubectl exec) with the Job's files, Secret and identity.  Input: the Job (kubectl get
# job -o json).  Used by tests/kube/10_cluster.bats and tests/rehearsal/kube.bash.
{apiVersion: "v1", kind: "Pod",
  metadata: {name: "mm2-operator",
    labels: (.spec.template.metadata.labels | with_entries(select(.key | startswith("app.kubernetes.io/"))))},
  spec: (.spec.template.spec | .terminationGracePeriodSeconds = 1
    | .containers[0].command = ["sleep", $sleep] | del(.containers[0].args)
    | .volumes |= map(select(.name != "plan")) + [{name: "work", emptyDir: {sizeLimit: "64Mi"}}]
    | .containers[0].volumeMounts |= map(select(.name != "plan")) + [{name: "work", mountPath: "/work"}]
    | .containers[0].workingDir = "/work")}
