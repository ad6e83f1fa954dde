/**
 * Answers kube-apiserver v1.37.2 gave in protobuf (captured with test/fidelity/probe.ts-style raw
 * reads, Accept: application/vnd.kubernetes.protobuf), with the JSON it gave for the same object:
 * watchmark must write the same bytes for the same JSON.
 */

/** GET of a ConfigMap: its JSON answer and its protobuf answer (hex). */
export const CONFIGMAP = {
  json: '{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"cm1","namespace":"default","uid":"e12ea595-6cce-4c57-bb3c-923e3531cd7b","resourceVersion":"211","creationTimestamp":"2026-12-07T07:56:47Z","labels":{"10":"x","9":"y","a":"1","b":"2"},"annotations":{"z":""},"managedFields":[{"manager":"unknown","operation":"Update","apiVersion":"v1","time":"2026-12-07T07:56:47Z","fieldsType":"FieldsV1","fieldsV1":{"f:binaryData":{".":{},"f:bin":{}},"f:data":{".":{},"f:empty":{},"f:k1":{},"f:k2":{}},"f:metadata":{"f:annotations":{".":{},"f:z":{}},"f:labels":{".":{},"f:10":{},"f:9":{},"f:a":{},"f:b":{}}}}}]},"data":{"empty":"","k1":"v1","k2":"v2"},"binaryData":{"bin":"AAEC"}}',
  protobuf:
    '6b3873000a0f0a0276311209436f6e6669674d61701295030ae7020a03636d3112001a0764656661756c7422002a2465' +
    '313265613539352d366363652d346335372d626233632d39323365333533316364376232033231313800420808bfcdd9' +
    'd80610005a070a0231301201785a060a01391201795a060a01611201315a060a016212013262050a017a12008a01f201' +
    '0a07756e6b6e6f776e12065570646174651a027631220808bfcdd9d806100032084669656c647356313ac4010ac1017b' +
    '22663a62696e61727944617461223a7b222e223a7b7d2c22663a62696e223a7b7d7d2c22663a64617461223a7b222e22' +
    '3a7b7d2c22663a656d707479223a7b7d2c22663a6b31223a7b7d2c22663a6b32223a7b7d7d2c22663a6d657461646174' +
    '61223a7b22663a616e6e6f746174696f6e73223a7b222e223a7b7d2c22663a7a223a7b7d7d2c22663a6c6162656c7322' +
    '3a7b222e223a7b7d2c22663a3130223a7b7d2c22663a39223a7b7d2c22663a61223a7b7d2c22663a62223a7b7d7d7d7d' +
    '420012090a05656d707479120012080a026b311202763112080a026b32120276321a0a0a0362696e12030001021a0022' +
    '00',
};

/** A Deployment created with an IntOrString, Quantities and a probe: JSON and protobuf. */
export const DEPLOYMENT = {
  json: '{"kind":"Deployment","apiVersion":"apps/v1","metadata":{"name":"d1","namespace":"default","uid":"6c60ef18-2e7c-4618-a249-736e7966533f","resourceVersion":"212","generation":1,"creationTimestamp":"2026-12-07T07:56:47Z","managedFields":[{"manager":"unknown","operation":"Update","apiVersion":"apps/v1","time":"2026-12-07T07:56:47Z","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:progressDeadlineSeconds":{},"f:replicas":{},"f:revisionHistoryLimit":{},"f:selector":{},"f:strategy":{"f:rollingUpdate":{".":{},"f:maxSurge":{},"f:maxUnavailable":{}},"f:type":{}},"f:template":{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:containers":{"k:{\\"name\\":\\"c\\"}":{".":{},"f:image":{},"f:imagePullPolicy":{},"f:livenessProbe":{".":{},"f:failureThreshold":{},"f:httpGet":{".":{},"f:path":{},"f:port":{},"f:scheme":{}},"f:periodSeconds":{},"f:successThreshold":{},"f:timeoutSeconds":{}},"f:name":{},"f:resources":{".":{},"f:limits":{".":{},"f:cpu":{},"f:memory":{}},"f:requests":{".":{},"f:cpu":{}}},"f:terminationMessagePath":{},"f:terminationMessagePolicy":{}}},"f:dnsPolicy":{},"f:restartPolicy":{},"f:schedulerName":{},"f:securityContext":{},"f:terminationGracePeriodSeconds":{}}}}}}]},"spec":{"replicas":2,"selector":{"matchLabels":{"app":"d"}},"template":{"metadata":{"labels":{"app":"d"}},"spec":{"containers":[{"name":"c","image":"nginx","resources":{"limits":{"cpu":"500m","memory":"1Gi"},"requests":{"cpu":"100m"}},"livenessProbe":{"httpGet":{"path":"/","port":"http","scheme":"HTTP"},"timeoutSeconds":1,"periodSeconds":3,"successThreshold":1,"failureThreshold":3},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","imagePullPolicy":"Always"}],"restartPolicy":"Always","terminationGracePeriodSeconds":30,"dnsPolicy":"ClusterFirst","securityContext":{},"schedulerName":"default-scheduler"}},"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxUnavailable":1,"maxSurge":"25%"}},"revisionHistoryLimit":10,"progressDeadlineSeconds":600},"status":{}}',
  protobuf:
    '6b3873000a150a07617070732f7631120a4465706c6f796d656e7412820a0ab7070a02643112001a0764656661756c74' +
    '22002a2436633630656631382d326537632d343631382d613234392d3733366537393636353333663203323132380142' +
    '0808bfcdd9d80610008a01eb060a07756e6b6e6f776e12065570646174651a07617070732f7631220808bfcdd9d80610' +
    '0032084669656c647356313ab8060ab5067b22663a73706563223a7b22663a70726f6772657373446561646c696e6553' +
    '65636f6e6473223a7b7d2c22663a7265706c69636173223a7b7d2c22663a7265766973696f6e486973746f72794c696d' +
    '6974223a7b7d2c22663a73656c6563746f72223a7b7d2c22663a7374726174656779223a7b22663a726f6c6c696e6755' +
    '7064617465223a7b222e223a7b7d2c22663a6d61785375726765223a7b7d2c22663a6d6178556e617661696c61626c65' +
    '223a7b7d7d2c22663a74797065223a7b7d7d2c22663a74656d706c617465223a7b22663a6d65746164617461223a7b22' +
    '663a6c6162656c73223a7b222e223a7b7d2c22663a617070223a7b7d7d7d2c22663a73706563223a7b22663a636f6e74' +
    '61696e657273223a7b226b3a7b5c226e616d655c223a5c22635c227d223a7b222e223a7b7d2c22663a696d616765223a' +
    '7b7d2c22663a696d61676550756c6c506f6c696379223a7b7d2c22663a6c6976656e65737350726f6265223a7b222e22' +
    '3a7b7d2c22663a6661696c7572655468726573686f6c64223a7b7d2c22663a68747470476574223a7b222e223a7b7d2c' +
    '22663a70617468223a7b7d2c22663a706f7274223a7b7d2c22663a736368656d65223a7b7d7d2c22663a706572696f64' +
    '5365636f6e6473223a7b7d2c22663a737563636573735468726573686f6c64223a7b7d2c22663a74696d656f75745365' +
    '636f6e6473223a7b7d7d2c22663a6e616d65223a7b7d2c22663a7265736f7572636573223a7b222e223a7b7d2c22663a' +
    '6c696d697473223a7b222e223a7b7d2c22663a637075223a7b7d2c22663a6d656d6f7279223a7b7d7d2c22663a726571' +
    '7565737473223a7b222e223a7b7d2c22663a637075223a7b7d7d7d2c22663a7465726d696e6174696f6e4d6573736167' +
    '6550617468223a7b7d2c22663a7465726d696e6174696f6e4d657373616765506f6c696379223a7b7d7d7d2c22663a64' +
    '6e73506f6c696379223a7b7d2c22663a72657374617274506f6c696379223a7b7d2c22663a7363686564756c65724e61' +
    '6d65223a7b7d2c22663a7365637572697479436f6e74657874223a7b7d2c22663a7465726d696e6174696f6e47726163' +
    '65506572696f645365636f6e6473223a7b7d7d7d7d7d420012b7020802120a0a080a036170701201641af7010a1a0a00' +
    '12001a0022002a003200380042005a080a0361707012016412d8011292010a016312056e67696e782a00422f0a0d0a03' +
    '63707512060a043530306d0a0f0a066d656d6f727912050a03314769120d0a0363707512060a043130306d52250a1912' +
    '170a012f120a080110001a04687474701a00220448545450100018012003280130036a142f6465762f7465726d696e61' +
    '74696f6e2d6c6f677206416c77617973800100880100900100a2010446696c651a06416c77617973201e320c436c7573' +
    '746572466972737442004a00520058006000680072008201008a01009a011164656661756c742d7363686564756c6572' +
    'c2010022240a0d526f6c6c696e6755706461746512130a06080010011a001209080110001a033235252800300a380048' +
    'd8041a0c0800100018002000280038001a002200',
};

/** The 404 Status of a missing ConfigMap ("nope"), in protobuf. */
export const NOT_FOUND_STATUS =
  '6b3873000a0c0a027631120653746174757312550a060a0012001a0012074661696c7572651a1b636f6e6669676d6170' +
  '7320226e6f706522206e6f7420666f756e6422084e6f74466f756e642a180a046e6f706512001a0a636f6e6669676d61' +
  '7073280032003094031a002200';
