module github.com/electgo/elect

go 1.26.8
