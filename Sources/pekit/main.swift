print("pekit")
