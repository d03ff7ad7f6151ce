import FuzzFixtures

runLibFuzzer { data, size in fuzzPageToken(data, size) }
